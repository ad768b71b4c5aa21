import { HarnessError } from 'dsh-user-interaction';

/** Every way a workspace tool or the permission policy reports a problem; each is in the README. */
export const TOOL_ERROR_CODES = [
  /** A path that is not text, holds a NUL, or cannot be resolved; or a workspace that is no folder. */
  'PATH_INVALID',
  /** Nothing at the path. */
  'PATH_NOT_FOUND',
  /** The file is not UTF-8 text (binary), or a folder where a file was expected. */
  'NOT_TEXT',
  /** The file is larger than the tool reads or writes. */
  'TOO_LARGE',
  /** `edit_file`: the text to replace is not in the file. */
  'EDIT_NOT_FOUND',
  /** `edit_file`: the text to replace is in the file more than once. */
  'EDIT_NOT_UNIQUE',
  /** The file changed between the approval and the write: nothing was written. */
  'FILE_CHANGED',
  /** Invalid arguments (a bad regular expression, glob, range or time limit; a command no program can be given). */
  'ARGUMENTS_INVALID',
  /** A rule (`--allow`, `--deny`, a rules file entry) that is not `TOOL` or `TOOL:PATTERN`. */
  'RULE_INVALID',
  /** A rules file that is damaged, a symlink, not the user's, or writable by others. */
  'RULES_FILE_INVALID',
  /** A file operation failed (permission denied, disk full…); the message names it. */
  'FILE_FAILED',
  /** `run_command` under `--sandbox on`: the sandbox cannot start here, so the command did not run. */
  'SANDBOX_UNAVAILABLE',
  /** `run_command`: the sandbox failed to start this command, so it did not run; the message says why. */
  'SANDBOX_FAILED',
] as const;

/** A stable code of a `WorkspaceToolError`. */
export type WorkspaceToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

/** A failure of a workspace tool or of the permission policy, with a stable `code`. */
export class WorkspaceToolError extends HarnessError<WorkspaceToolErrorCode> {}

/** True for a `WorkspaceToolError` from this or any other copy of the package, optionally with the code. */
export const isWorkspaceToolError = HarnessError.define(
  WorkspaceToolError,
  'WorkspaceToolError',
  TOOL_ERROR_CODES,
);
