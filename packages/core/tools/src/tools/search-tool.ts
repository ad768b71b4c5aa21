import type { AgentTool } from 'dsh-user-interaction/agent-tool';
import { WorkspaceToolError } from '../tool-error.js';
import type { Workspace } from '../workspace/workspace.js';
import { eventLoopTurns } from './event-loop-turns.js';
import { folderOf, globMatcher } from './list-files-tool.js';
import { type SearchOutcome, startFileSearch } from './search-worker.js';
import { LARGEST_FILE } from './text-file.js';
import { shownPath } from './tool-arguments.js';
import { declareTool, errorsSentence, parametersSchema, readArguments } from './tool-parameters.js';
import { type FoundFile, walkFiles } from './walk-files.js';

/** Files sent to the search thread at once, and lists of them sent before the first is answered. */
const READ_AT_ONCE = 256;
const LISTS_AHEAD = 2;

/**
 * Matches one call shows at most, the characters of a matching line it shows, and the time one
 * file may take (milliseconds) before the search stops there.
 */
export const SEARCH_LIMITS = { matches: 200, lineLength: 300, fileMilliseconds: 5_000 } as const;

/** Options of `createSearchTool`. */
export interface SearchToolOptions {
  /** The time one file may take, in milliseconds (default `SEARCH_LIMITS.fileMilliseconds`). */
  readonly fileMilliseconds?: number;
}

/** `search`'s parameters and errors. */
export const SEARCH = declareTool({
  name: 'search',
  parameters: {
    pattern: {
      kind: 'text',
      required: true,
      description: 'A JavaScript regular expression, matched against each line.',
    },
    path: { kind: 'text', description: 'The folder to search (default: the workspace).' },
    glob: {
      kind: 'globs',
      description: 'Only files whose path (relative to the folder) matches this glob.',
    },
    case_insensitive: { kind: 'flag', description: 'Ignore case (default false).' },
  },
  errors: {
    ARGUMENTS_INVALID: 'an invalid regular expression or glob',
    PATH_NOT_FOUND: '',
    PERMISSION_DENIED: 'the person did not allow searching outside the workspace',
  },
});

const DESCRIPTION = `Searches the text files of a folder of the workspace for a JavaScript regular expression, line by line, skipping binary files and what .gitignore files ignore. Each file may take ${SEARCH_LIMITS.fileMilliseconds / 1000} s: a pattern that backtracks (a repeat of a repeat, such as (a+)+, over a long line) is stopped there, and the result names the file. Each match is "path:line: text" (path relative to the folder). Narrow it with glob (such as "**/*.ts"); case_insensitive ignores case. At most ${SEARCH_LIMITS.matches} matches are shown; the result says when there were more. ${errorsSentence(SEARCH.errors)}`;

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

/** `search`: a regular expression over the text files of a folder, capped, with file and line. */
export function createSearchTool(workspace: Workspace, options: SearchToolOptions = {}): AgentTool {
  const fileMilliseconds = options.fileMilliseconds ?? SEARCH_LIMITS.fileMilliseconds;
  return {
    name: 'search',
    description: DESCRIPTION,
    parameters: parametersSchema(SEARCH.parameters),
    title: (args) => `Search for ${String((args as { pattern?: unknown } | null)?.pattern ?? '')}`,
    async describe(args) {
      const read = readArguments(SEARCH, args);
      regexOf(read.pattern, read.case_insensitive);
      globMatcher(read.glob, 'glob');
      const folder = await folderOf(workspace, read.path, 'search');
      return {
        kind: 'search',
        title: `Search for /${read.pattern}/ in ${shownPath(folder.relative, folder.path)}`,
        locations: [{ path: folder.path }],
      };
    },
    async execute(args, context) {
      const read = readArguments(SEARCH, args);
      const { pattern } = read;
      const regex = regexOf(pattern, read.case_insensitive);
      const matchesGlob = globMatcher(read.glob, 'glob');
      const root = context.description?.locations?.[0]?.path as string;
      const search = startFileSearch({
        pattern,
        flags: regex.flags,
        largest: LARGEST_FILE,
        lineLength: SEARCH_LIMITS.lineLength,
        perFile: SEARCH_LIMITS.matches + 1,
        fileTimeLimit: fileMilliseconds,
        signal: context.signal,
      });
      const found: string[] = [];
      const notes: string[] = [];
      const turns = eventLoopTurns();
      const answers: Promise<SearchOutcome>[] = [];
      let more = false;
      let slow: string | undefined;
      const stop = () => more || slow !== undefined || context.signal.aborted;
      /** Takes the answer to the oldest list sent. */
      const takeAnswer = async (): Promise<void> => {
        const outcome = await (answers.shift() as Promise<SearchOutcome>);
        if ('failed' in outcome) throw outcome.failed;
        if (!('lines' in outcome)) return;
        if ('slow' in outcome) slow = outcome.slow;
        for (const line of outcome.lines) {
          if (found.length === SEARCH_LIMITS.matches) {
            more = true;
            return;
          }
          found.push(line);
        }
      };
      try {
        let batch: FoundFile[] = [];
        walk: for await (const files of walkFiles(root, stop, notes)) {
          for (const file of files) {
            if (turns.due()) {
              await turns.take();
              if (stop()) break walk;
            }
            if (!matchesGlob(file.relative)) continue;
            batch.push(file);
            if (batch.length < READ_AT_ONCE) continue;
            answers.push(search.match(batch));
            batch = [];
            if (answers.length > LISTS_AHEAD) await takeAnswer();
            if (stop()) break walk;
          }
        }
        if (!stop() && batch.length > 0) answers.push(search.match(batch));
        while (answers.length > 0 && !stop()) await takeAnswer();
      } finally {
        await search.close();
      }
      if (slow !== undefined)
        notes.unshift(
          `(stopped: the pattern took over ${fileMilliseconds / 1000} s on ${slow}; a pattern that backtracks, such as a repeat of a repeat, can take years on one line: rewrite it)`,
        );
      if (found.length === 0 && slow === undefined) notes.unshift('(no match)');
      else if (more)
        notes.unshift(
          `(more than ${SEARCH_LIMITS.matches} matches: narrow the pattern, path or glob)`,
        );
      return { ok: true, output: [...found, ...notes].join('\n') };
    },
  };
}
