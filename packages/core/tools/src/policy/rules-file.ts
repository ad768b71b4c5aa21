import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { OWN_FILE_FLAGS, ownFileProblem } from 'dsh-user-interaction/host';
import { WorkspaceToolError } from '../tool-error.js';
import { COMMAND_TOOL, parseRule } from './permission-rule.js';

/** The rules a rules file holds. */
export interface RulesFileContents {
  readonly allow: readonly string[];
  readonly deny: readonly string[];
}

/** The version of the rules file's format. */
export const RULES_FILE_VERSION = 1;
/** A rules file is a few rules; anything much larger is not one of ours. */
const LARGEST_RULES_FILE = 1024 * 1024;

/** Where the rules of a workspace live, in the state folder: one file per workspace folder. */
export function workspaceRulesPath(stateDir: string, workspaceRoot: string): string {
  const key = createHash('sha256').update(workspaceRoot).digest('hex').slice(0, 32);
  return join(stateDir, 'permissions', 'workspaces', `${key}.json`);
}

/** Where the person's own rules, for every workspace, live. */
export function userRulesPath(stateDir: string): string {
  return join(stateDir, 'permissions', 'user.json');
}

function invalid(path: string, why: string, fix: string, cause?: unknown): WorkspaceToolError {
  return new WorkspaceToolError(
    `The rules file ${path} ${why}; it was not read. ${fix}`,
    'RULES_FILE_INVALID',
    cause === undefined ? undefined : { cause },
  );
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'an unexpected error';
}

/** The file's identity and version: when it changes, the file is read again. */
export function fileStamp(path: string): string | undefined {
  try {
    // Checked before every decision, and most often absent: `throwIfNoEntry: false` says so
    // without building an error (the costly part of a missing file's stat).
    const stats = statSync(path, { bigint: true, throwIfNoEntry: false });
    return stats === undefined
      ? undefined
      : `${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
  } catch {
    return undefined;
  }
}

/**
 * Reads a rules file, trusting nothing: it must be a regular file (never a symlink or a FIFO:
 * opened with `O_NOFOLLOW | O_NONBLOCK`, then checked on the open handle), the user's own, not
 * writable by anyone else, and hold valid JSON of this format with valid rules (`commandTool`'s
 * being command prefixes). Anything else
 * throws `RULES_FILE_INVALID` naming the file and the fix; a file that is absent holds nothing.
 */
export function readRulesFile(path: string, commandTool = COMMAND_TOOL): RulesFileContents {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | OWN_FILE_FLAGS);
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ENOENT') return { allow: [], deny: [] };
    if (code === 'ELOOP')
      throw invalid(path, 'is a symbolic link', 'Replace it with a regular file.', error);
    throw invalid(path, `cannot be opened (${code})`, 'Check its permissions.', error);
  }
  let text: string;
  try {
    const stats = fstatSync(fd);
    // Not a regular file (a FIFO, a folder), or another user's: the state folder's own rule.
    const problem = ownFileProblem(stats);
    if (problem !== undefined) throw invalid(path, problem, 'Remove it.');
    if ((stats.mode & 0o022) !== 0) {
      throw invalid(path, 'can be written by other users', `Run chmod 600 ${path}.`);
    }
    if (stats.size > LARGEST_RULES_FILE)
      throw invalid(path, 'is too large to be a rules file', 'Remove it.');
    const buffer = Buffer.alloc(Number(stats.size));
    let read = 0;
    while (read < buffer.length) {
      const got = readSync(fd, buffer, read, buffer.length - read, read);
      if (got === 0) break;
      read += got;
    }
    text = buffer.toString('utf8', 0, read);
  } finally {
    closeSync(fd);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalid(path, 'is not valid JSON', 'Repair it or remove it.', error);
  }
  const fields = value as { version?: unknown; allow?: unknown; deny?: unknown } | null;
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
    throw invalid(path, 'does not hold a JSON object', 'Repair it or remove it.');
  }
  if (fields.version !== RULES_FILE_VERSION) {
    throw invalid(
      path,
      `is in format ${JSON.stringify(fields.version)}, not ${RULES_FILE_VERSION}`,
      typeof fields.version === 'number' && fields.version > RULES_FILE_VERSION
        ? 'It was written by a newer version of dsh.'
        : 'Repair it or remove it.',
    );
  }
  const list = (key: 'allow' | 'deny'): string[] => {
    const rules = fields[key] ?? [];
    if (!Array.isArray(rules))
      throw invalid(path, `has a \`${key}\` that is not a list`, 'Repair it or remove it.');
    return rules.map((rule, index) => {
      try {
        return parseRule(rule, commandTool).text;
      } catch (error) {
        throw invalid(
          path,
          `has an invalid rule at ${key}[${index}]`,
          (error as Error).message,
          error,
        );
      }
    });
  };
  return { allow: list('allow'), deny: list('deny') };
}

/** Makes the folders of `path`, the state folder's own readable by its owner only. */
function ensureFolder(folder: string): void {
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    chmodSync(folder, 0o700);
  } catch (error) {
    throw new WorkspaceToolError(
      `Cannot make the folder ${folder} for the rules (${codeOf(error)}).`,
      'FILE_FAILED',
      { cause: error },
    );
  }
}

/** Waits a little, without holding the event loop. */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A lock that no process holds any more is taken over after this long. */
const STALE_LOCK_MS = 10_000;

/** Runs `change` while holding `<path>.lock` (made with `O_EXCL`): writers never lose a rule. */
async function withLock<T>(path: string, change: () => T): Promise<T> {
  const lock = `${path}.lock`;
  for (let attempt = 0; ; attempt++) {
    try {
      closeSync(openSync(lock, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600));
      break;
    } catch (error) {
      if (codeOf(error) !== 'EEXIST') {
        throw new WorkspaceToolError(
          `Cannot lock the rules file ${path} (${codeOf(error)}).`,
          'FILE_FAILED',
          {
            cause: error,
          },
        );
      }
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > STALE_LOCK_MS) {
        try {
          unlinkSync(lock);
        } catch {
          // Another writer took it over first.
        }
        continue;
      }
      if (attempt > 200) {
        throw new WorkspaceToolError(
          `The rules file ${path} stayed locked; remove ${lock} if no dsh runs.`,
          'FILE_FAILED',
        );
      }
      await pause(5 + Math.floor(Math.random() * 10));
    }
  }
  try {
    return change();
  } finally {
    try {
      unlinkSync(lock);
    } catch {
      // Gone already.
    }
  }
}

/**
 * Adds `rule` to the `effect` list of the rules file at `path`: read again under a lock, merged,
 * then written whole to a new file (0600, fsync'ed) that replaces it, so that a reader sees the
 * old file or the new one, never half of one, and two writers never lose a rule.
 */
export async function addRule(
  path: string,
  rule: string,
  effect: 'allow' | 'deny',
  extra: Readonly<Record<string, string>> = {},
  commandTool = COMMAND_TOOL,
): Promise<void> {
  const text = parseRule(rule, commandTool).text;
  ensureFolder(dirname(path));
  await withLock(path, () => {
    const current = readRulesFile(path, commandTool);
    const list = effect === 'allow' ? current.allow : current.deny;
    if (list.includes(text)) return;
    const next = {
      version: RULES_FILE_VERSION,
      ...extra,
      allow: effect === 'allow' ? [...current.allow, text] : current.allow,
      deny: effect === 'deny' ? [...current.deny, text] : current.deny,
    };
    const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    const fd = openSync(
      temporary,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
    try {
      const bytes = Buffer.from(`${JSON.stringify(next, null, 2)}\n`);
      for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset);
      fsyncSync(fd);
    } catch (error) {
      closeSync(fd);
      unlinkSync(temporary);
      throw new WorkspaceToolError(
        `Cannot write the rules file ${path} (${codeOf(error)}).`,
        'FILE_FAILED',
        {
          cause: error,
        },
      );
    }
    closeSync(fd);
    chmodSync(temporary, 0o600);
    renameSync(temporary, path);
  });
}
