import type { AgentTool } from 'dsh-user-interaction/agent-tool';
import { resolvePath, type Workspace } from '../workspace/workspace.js';
import { applyApprovedEdit } from './file-change.js';
import { readTextFile } from './text-file.js';
import { FILE_PATH_PARAMETER, shownPath } from './tool-arguments.js';
import { declareTool, errorsSentence, parametersSchema, readArguments } from './tool-parameters.js';

/** `write_file`'s parameters and errors. */
export const WRITE_FILE = declareTool({
  name: 'write_file',
  parameters: {
    path: FILE_PATH_PARAMETER,
    content: { kind: 'text', required: true, description: 'The whole text of the file.' },
  },
  errors: {
    FILE_CHANGED: 'the file changed after the approval: nothing was written',
    NOT_TEXT: 'the file there is binary, or a folder',
    TOO_LARGE: '',
    PATH_INVALID: '',
    ARGUMENTS_INVALID: '',
    PERMISSION_DENIED: 'the person or a rule did not allow it: it did not run',
  },
});

const DESCRIPTION = `Writes a text file whole: creates it (and its folders) or replaces everything in it with content. Prefer edit_file to change part of an existing file. The person approves the change (shown as a diff) before it is written, unless a rule allows it; the result shows the diff. ${errorsSentence(WRITE_FILE.errors)}`;

/** `write_file`: a file created or overwritten, approved as a diff, written atomically. */
export function createWriteFileTool(workspace: Workspace): AgentTool {
  return {
    name: 'write_file',
    description: DESCRIPTION,
    parameters: parametersSchema(WRITE_FILE.parameters),
    title: (args) => `Write ${String((args as { path?: unknown } | null)?.path ?? 'a file')}`,
    async describe(args) {
      const { path, content } = readArguments(WRITE_FILE, args);
      const resolved = await resolvePath(workspace, path);
      const oldText = (await readTextFile(resolved.path, 'allowed')) ?? null;
      const shown = shownPath(resolved.relative, resolved.path);
      return {
        kind: 'edit',
        title: `${oldText === null ? 'Create' : 'Overwrite'} ${shown}`,
        locations: [{ path: resolved.path }],
        edit: { path: resolved.path, oldText, newText: content },
      };
    },
    execute: (args, context) =>
      applyApprovedEdit(workspace, readArguments(WRITE_FILE, args).path, context),
  };
}
