import type { AgentTool } from 'dsh-user-interaction/agent-tool';
import { WorkspaceToolError } from '../tool-error.js';
import { resolvePath, type Workspace } from '../workspace/workspace.js';
import { readTextFile } from './text-file.js';
import { FILE_PATH_PARAMETER, shownPath } from './tool-arguments.js';
import { declareTool, errorsSentence, parametersSchema, readArguments } from './tool-parameters.js';

/** Lines and characters one call shows at most; the rest is said, with how to read it. */
export const READ_LIMITS = { lines: 2_000, characters: 256 * 1024, lineLength: 2_000 } as const;

/** `read_file`'s parameters and errors. */
export const READ_FILE = declareTool({
  name: 'read_file',
  parameters: {
    path: FILE_PATH_PARAMETER,
    start_line: { kind: 'count', minimum: 1, description: 'The first line to read (default 1).' },
    end_line: {
      kind: 'count',
      minimum: 1,
      description: 'The last line to read (default: the end).',
    },
  },
  errors: {
    PATH_NOT_FOUND: 'no such file',
    NOT_TEXT: 'a folder or a binary file',
    TOO_LARGE: 'over 8 MiB',
    PATH_INVALID: '',
    FILE_CHANGED: 'the file was replaced by a link while it was read: nothing was read',
    ARGUMENTS_INVALID: '',
    PERMISSION_DENIED: 'the person did not allow a read outside the workspace',
  },
});

const DESCRIPTION = `Reads a UTF-8 text file of the workspace (a path relative to it, or absolute), with line numbers: each line is "N<tab>text". Read part of a long file with start_line and end_line (1-based, inclusive). At most ${READ_LIMITS.lines} lines are shown per call; the result says which lines were left out and how to read them. Reading inside the workspace needs no approval; a path outside it asks the person. ${errorsSentence(READ_FILE.errors)}`;

/** `read_file`: a text file with line numbers, a range of it, within a size cap that says what it left out. */
export function createReadFileTool(workspace: Workspace): AgentTool {
  return {
    name: 'read_file',
    description: DESCRIPTION,
    parameters: parametersSchema(READ_FILE.parameters),
    title: (args) => `Read ${String((args as { path?: unknown } | null)?.path ?? 'a file')}`,
    async describe(args) {
      const read = readArguments(READ_FILE, args);
      const resolved = await resolvePath(workspace, read.path);
      const start = read.start_line ?? 1;
      return {
        kind: 'read',
        title: `Read ${shownPath(resolved.relative, resolved.path)}`,
        locations: [{ path: resolved.path, line: start }],
      };
    },
    async execute(args, context) {
      const read = readArguments(READ_FILE, args);
      const path = context.description?.locations?.[0]?.path as string;
      const start = read.start_line ?? 1;
      const end = read.end_line;
      if (end !== undefined && end < start) {
        throw new WorkspaceToolError(
          '`end_line` must not be before `start_line`.',
          'ARGUMENTS_INVALID',
        );
      }
      const text = (await readTextFile(path)) as string;
      const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
      const total = lines.length;
      const last = Math.min(end ?? total, total, start + READ_LIMITS.lines - 1);
      let shown = '';
      let line = start;
      for (; line <= last; line++) {
        let content = lines[line - 1] as string;
        if (content.length > READ_LIMITS.lineLength) {
          content = `${content.slice(0, READ_LIMITS.lineLength)}… (${content.length - READ_LIMITS.lineLength} more characters on this line)`;
        }
        const next = `${line}\t${content}\n`;
        if (shown.length + next.length > READ_LIMITS.characters) break;
        shown += next;
      }
      const lastShown = line - 1;
      const notes: string[] = [];
      if (total === 0) notes.push('(the file is empty)');
      else if (start > total)
        notes.push(`(the file has ${total} lines; nothing from line ${start})`);
      else if (lastShown < Math.min(end ?? total, total)) {
        notes.push(
          `(lines ${lastShown + 1}–${Math.min(end ?? total, total)} of ${total} not shown: call read_file again with start_line ${lastShown + 1})`,
        );
      } else if (lastShown < total && end === undefined) {
        notes.push(`(lines ${lastShown + 1}–${total} not shown)`);
      }
      return { ok: true, output: `${shown}${notes.join('\n')}`.replace(/\n$/, '') };
    },
  };
}
