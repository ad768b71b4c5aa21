import type { PermissionEdit } from 'dsh-user-interaction';
import type { ToolContext, ToolResult } from 'dsh-user-interaction/agent-tool';
import { WorkspaceToolError } from '../tool-error.js';
import type { Workspace } from '../workspace/workspace.js';
import { resolvePath, workspaceRelative } from '../workspace/workspace.js';
import { readTextFileAndMode, writeTextFile } from './text-file.js';

/** The diff module, imported at the first change and kept. */
let diffModule: Promise<typeof import('diff')> | undefined;

/** Lines of a diff a result shows at most. */
const DIFF_LINES = 200;

/** The unified diff of a change, cut at `DIFF_LINES` lines saying how many were left out. */
async function diffText(edit: PermissionEdit, shown: string): Promise<string> {
  // A failed import is tried again at the next change, not kept for the life of the process.
  diffModule ??= import('diff').catch((error: unknown) => {
    diffModule = undefined;
    throw error;
  });
  const { createTwoFilesPatch } = await diffModule;
  const patch =
    createTwoFilesPatch(
      edit.oldText === null ? '/dev/null' : `a/${shown}`,
      `b/${shown}`,
      edit.oldText ?? '',
      edit.newText,
      '',
      '',
      { context: 3 },
    ) ?? '';
  const lines = patch.split('\n').filter((line, index) => index > 0 || !line.startsWith('====='));
  if (lines.length <= DIFF_LINES) return lines.join('\n').trimEnd();
  return `${lines.slice(0, DIFF_LINES).join('\n')}\n(${lines.length - DIFF_LINES} more lines of the diff not shown)`;
}

function counts(edit: PermissionEdit): string {
  const lines = (text: string | null) =>
    text === null || text === '' ? 0 : text.replace(/\n$/, '').split('\n').length;
  const before = lines(edit.oldText);
  return `${before} line${before === 1 ? '' : 's'} before, ${lines(edit.newText)} after`;
}

/**
 * Makes the approved change, and only it: the path is resolved again and must be the one
 * approved, and the file must still hold the approved old text (or still not exist), else
 * `FILE_CHANGED` and nothing is written. The result shows the diff.
 */
export async function applyApprovedEdit(
  workspace: Workspace,
  given: string,
  context: ToolContext,
): Promise<ToolResult> {
  const edit = context.description?.edit;
  if (edit === undefined)
    throw new WorkspaceToolError('The change was not described before it ran.', 'FILE_CHANGED');
  // The path is resolved again, and must lead where it led when approved, before the approved
  // file is read again (both synchronous underneath: nothing is gained by overlapping them).
  const resolution = await resolvePath(workspace, given);
  if (resolution.path !== edit.path) {
    throw new WorkspaceToolError(
      `${given} leads elsewhere than when the change was approved (a link changed): nothing was written.`,
      'FILE_CHANGED',
    );
  }
  const reading = await readTextFileAndMode(edit.path, 'allowed');
  const current = reading?.text ?? null;
  if (current !== edit.oldText) {
    throw new WorkspaceToolError(
      `${given} changed since the change was approved: nothing was written. Read it again and propose the change again.`,
      'FILE_CHANGED',
    );
  }
  await writeTextFile(edit.path, edit.newText, reading?.mode);
  const shown = workspaceRelative(workspace, edit.path) ?? edit.path;
  const verb = edit.oldText === null ? 'Created' : 'Changed';
  return {
    ok: true,
    output: `${verb} ${shown} (${counts(edit)}).\n${await diffText(edit, shown)}`,
    details: { edit },
  };
}
