import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { AgentTool } from 'dsh-agent';
import { WorkspaceToolError } from '../tool-error.js';
import type { Workspace } from '../workspace/workspace.js';
import { folderOf, globMatcher } from './list-files-tool.js';
import { LARGEST_FILE } from './text-file.js';
import { argumentsOf, shownPath, textArgument } from './tool-arguments.js';
import { walkFiles } from './walk-files.js';

/** Files read between two turns of the event loop. */
const READ_AT_ONCE = 256;

/** Matches one call shows at most, and the characters of a matching line it shows. */
export const SEARCH_LIMITS = { matches: 200, lineLength: 300 } as const;

const DESCRIPTION = `Searches the text files of a folder of the workspace for a JavaScript regular expression, line by line, skipping binary files and what .gitignore files ignore. Each match is "path:line: text" (path relative to the folder). Narrow it with glob (such as "**/*.ts"); case_insensitive ignores case. At most ${SEARCH_LIMITS.matches} matches are shown; the result says when there were more. Errors: ARGUMENTS_INVALID (an invalid regular expression or glob), PATH_NOT_FOUND, PERMISSION_DENIED (the person did not allow searching outside the workspace).`;

function regexOf(pattern: string, caseInsensitive: boolean, flags = ''): RegExp {
  try {
    return new RegExp(pattern, `${caseInsensitive ? 'i' : ''}u${flags}`);
  } catch (error) {
    try {
      return new RegExp(pattern, `${caseInsensitive ? 'i' : ''}${flags}`);
    } catch {
      throw new WorkspaceToolError(
        `\`pattern\` is not a valid regular expression (${(error as Error).message}).`,
        'ARGUMENTS_INVALID',
      );
    }
  }
}

/**
 * The text of a file when it is text and not too large; `undefined` otherwise. Read at once:
 * small files are read faster in one go than through the thread pool, and the search yields to
 * the event loop between batches, so a cancel is never kept waiting. A FIFO never blocks it. A
 * symbolic link is not followed (`O_NOFOLLOW`): the walk lists links as they are, and a link to a
 * file outside the workspace would let a search read, unasked, what `read_file` asks for.
 */
function textOf(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > LARGEST_FILE) return undefined;
    const bytes = Buffer.allocUnsafe(stats.size);
    let read = 0;
    while (read < bytes.length) {
      const got = readSync(fd, bytes, read, bytes.length - read, read);
      if (got === 0) break;
      read += got;
    }
    const text = bytes.subarray(0, read);
    // A NUL in the first bytes says binary, as grep decides.
    if (text.subarray(0, 8_192).includes(0)) return undefined;
    return text.toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** `search`: a regular expression over the text files of a folder, capped, with file and line. */
export function createSearchTool(workspace: Workspace): AgentTool {
  return {
    name: 'search',
    description: DESCRIPTION,
    parameters: {
      type: 'object',
      properties: {
        pattern: {
          type: 'string',
          description: 'A JavaScript regular expression, matched against each line.',
        },
        path: { type: 'string', description: 'The folder to search (default: the workspace).' },
        glob: {
          anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
          description: 'Only files whose path (relative to the folder) matches this glob.',
        },
        case_insensitive: { type: 'boolean', description: 'Ignore case (default false).' },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
    title: (args) => `Search for ${String((args as { pattern?: unknown } | null)?.pattern ?? '')}`,
    async describe(args) {
      const fields = argumentsOf(args, 'search');
      regexOf(textArgument(fields, 'pattern', 'search', true), fields.case_insensitive === true);
      globMatcher(fields.glob, 'glob');
      const folder = await folderOf(workspace, textArgument(fields, 'path', 'search'), 'search');
      return {
        kind: 'search',
        title: `Search for /${String(fields.pattern)}/ in ${shownPath(folder.relative, folder.path)}`,
        locations: [{ path: folder.path }],
      };
    },
    async execute(args, context) {
      const fields = argumentsOf(args, 'search');
      const pattern = textArgument(fields, 'pattern', 'search', true);
      const regex = regexOf(pattern, fields.case_insensitive === true);
      // The same expression over a whole file, `^` and `$` at each line: does any line match?
      const anyLine = regexOf(pattern, fields.case_insensitive === true, 'm');
      const matchesGlob = globMatcher(fields.glob, 'glob');
      const root = context.description?.locations?.[0]?.path as string;
      const found: string[] = [];
      let more = false;
      const stop = () => more || context.signal.aborted;
      /** The matching lines of one file, in order. */
      const matchesOf = (relative: string, path: string): string[] => {
        const text = textOf(path);
        // Most files do not match at all: one test of the whole text says so.
        if (text === undefined || !anyLine.test(text)) return [];
        const matched: string[] = [];
        let start = 0;
        for (
          let line = 1;
          start <= text.length && matched.length <= SEARCH_LIMITS.matches;
          line++
        ) {
          const newline = text.indexOf('\n', start);
          const end = newline === -1 ? text.length : newline;
          const content = text.slice(start, end);
          if (regex.test(content)) {
            const shown =
              content.length > SEARCH_LIMITS.lineLength
                ? `${content.slice(0, SEARCH_LIMITS.lineLength)}…`
                : content;
            matched.push(`${relative}:${line}: ${shown}`);
          }
          if (newline === -1) break;
          start = newline + 1;
        }
        return matched;
      };
      // Files are read a batch at a time, the event loop free between two batches.
      let batch: { relative: string; path: string }[] = [];
      const flush = async (): Promise<void> => {
        const results = batch.map((file) => matchesOf(file.relative, file.path));
        batch = [];
        await new Promise((resolve) => setImmediate(resolve));
        for (const matched of results) {
          for (const line of matched) {
            if (found.length === SEARCH_LIMITS.matches) {
              more = true;
              return;
            }
            found.push(line);
          }
        }
      };
      walk: for await (const files of walkFiles(root, stop)) {
        for (const file of files) {
          if (!matchesGlob(file.relative)) continue;
          batch.push(file);
          if (batch.length === READ_AT_ONCE) await flush();
          if (stop()) break walk;
        }
      }
      if (!stop()) await flush();
      const notes =
        found.length === 0
          ? ['(no match)']
          : more
            ? [`(more than ${SEARCH_LIMITS.matches} matches: narrow the pattern, path or glob)`]
            : [];
      return { ok: true, output: [...found, ...notes].join('\n') };
    },
  };
}
