import { HarnessError } from 'dsh-user-interaction';

/** Every way the session store reports a problem. Each is documented in the package README. */
export const SESSION_ERROR_CODES = [
  'SESSION_NOT_FOUND',
  'SESSION_LOCKED',
  'SESSION_INVALID',
  'SESSION_WRITE_FAILED',
  'SESSION_READ_FAILED',
  'SESSION_UNSAFE',
] as const;

/** A stable code of a `SessionError`. */
export type SessionErrorCode = (typeof SESSION_ERROR_CODES)[number];

/** A failure of the session store, with a stable `code`. */
export class SessionError extends HarnessError<SessionErrorCode> {}

/** True for a `SessionError` from this or any other copy of the package, optionally with the code. */
export const isSessionError = HarnessError.define(
  SessionError,
  'SessionError',
  SESSION_ERROR_CODES,
);

const MEANINGS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'it is a folder',
  EIO: 'input/output error',
  EMFILE: 'too many open files',
};

/** A failed file operation for a person: what it means and its code, `permission denied, EACCES`. */
export function systemProblem(error: unknown): string {
  const code = systemCode(error);
  const meaning = MEANINGS[code];
  return meaning === undefined ? code : `${meaning}, ${code}`;
}

/** The system's code of a failed file operation (`ENOENT`, `EACCES`…), or a generic word. */
export function systemCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'an unexpected error';
}
