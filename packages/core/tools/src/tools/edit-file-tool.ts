import type { AgentTool } from 'dsh-user-interaction/agent-tool';
import { WorkspaceToolError } from '../tool-error.js';
import { resolvePath, type Workspace } from '../workspace/workspace.js';
import { applyApprovedEdit } from './file-change.js';
import { readTextFile } from './text-file.js';
import { FILE_PATH_PARAMETER, shownPath } from './tool-arguments.js';
import { declareTool, errorsSentence, parametersSchema, readArguments } from './tool-parameters.js';

/** `edit_file`'s parameters and errors. */
export const EDIT_FILE = declareTool({
  name: 'edit_file',
  parameters: {
    path: FILE_PATH_PARAMETER,
    old_text: { kind: 'text', required: true, description: 'The exact text to replace.' },
    new_text: { kind: 'text', required: true, description: 'The text to put in its place.' },
    replace_all: { kind: 'flag', description: 'Replace every occurrence (default false).' },
  },
  errors: {
    EDIT_NOT_FOUND: 'old_text is not in the file: read it again',
    EDIT_NOT_UNIQUE: 'old_text occurs several times: give more lines around it, or replace_all',
    FILE_CHANGED: 'the file changed after the approval: nothing was written',
    PATH_NOT_FOUND: '',
    NOT_TEXT: '',
    TOO_LARGE: '',
    ARGUMENTS_INVALID: '',
    PERMISSION_DENIED: 'the person or a rule did not allow it: it did not run',
  },
});

const DESCRIPTION = `Edits a text file: replaces old_text, which must occur exactly once in the file (copy it exactly, with its indentation and enough lines around it to be unique), with new_text. replace_all replaces every occurrence instead. The person approves the change (shown as a diff) before it is written, unless a rule allows it; the result shows the diff. ${errorsSentence(EDIT_FILE.errors)}`;

function occurrences(text: string, part: string): number[] {
  const found: number[] = [];
  for (
    let index = text.indexOf(part);
    index !== -1;
    index = text.indexOf(part, index + part.length)
  ) {
    found.push(index);
  }
  return found;
}

/** `edit_file`: one exact text replaced (or every one), approved as a diff, written atomically. */
export function createEditFileTool(workspace: Workspace): AgentTool {
  return {
    name: 'edit_file',
    description: DESCRIPTION,
    parameters: parametersSchema(EDIT_FILE.parameters),
    title: (args) => `Edit ${String((args as { path?: unknown } | null)?.path ?? 'a file')}`,
    async describe(args) {
      const {
        path: given,
        old_text: oldText,
        new_text: newText,
        replace_all: replaceAll,
      } = readArguments(EDIT_FILE, args);
      if (oldText === '') {
        throw new WorkspaceToolError(
          '`old_text` must not be empty: to create a file, use write_file.',
          'ARGUMENTS_INVALID',
        );
      }
      const resolved = await resolvePath(workspace, given);
      const text = (await readTextFile(resolved.path)) as string;
      const found = occurrences(text, oldText);
      const shown = shownPath(resolved.relative, resolved.path);
      if (found.length === 0) {
        throw new WorkspaceToolError(
          `old_text is not in ${shown}: read the file again and copy the text exactly.`,
          'EDIT_NOT_FOUND',
        );
      }
      if (found.length > 1 && !replaceAll) {
        throw new WorkspaceToolError(
          `old_text occurs ${found.length} times in ${shown}: give more lines around it so that it occurs once, or set replace_all.`,
          'EDIT_NOT_UNIQUE',
        );
      }
      const changed = replaceAll
        ? text.split(oldText).join(newText)
        : text.replace(oldText, () => newText);
      const line = text.slice(0, found[0]).split('\n').length;
      return {
        kind: 'edit',
        title: `Edit ${shown}`,
        locations: [{ path: resolved.path, line }],
        edit: { path: resolved.path, oldText: text, newText: changed },
      };
    },
    execute: (args, context) =>
      applyApprovedEdit(workspace, readArguments(EDIT_FILE, args).path, context),
  };
}
