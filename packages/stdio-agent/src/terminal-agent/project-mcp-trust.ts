import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { OWN_FILE_FLAGS, openOwnFile } from 'dsh-agent/command-line';
import { readOpenFile, writePrivateFile } from 'dsh-user-interaction/host';

/** A project's `.mcp.json` is a few servers; anything much larger is not one. */
const LARGEST = 1024 * 1024;

/** What a trust record holds: the folder, and the SHA-256 of the `.mcp.json` bytes trusted. */
interface TrustRecord {
  readonly version: 1;
  readonly workspace: string;
  readonly sha256: string;
}

/** The SHA-256 of `bytes`, in hex: what trust is keyed by besides the folder. */
export function contentDigest(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Where the trust of a folder's `.mcp.json` is kept: the person's state folder, one file per folder. */
export function trustRecordPath(stateDir: string, workspace: string): string {
  const key = createHash('sha256').update(workspace).digest('hex').slice(0, 32);
  return join(stateDir, 'mcp', 'projects', `${key}.json`);
}

/** Every byte of an open file, at most `LARGEST`; `undefined` past it. */
function readAll(fd: number, size: number): Buffer | undefined {
  return size > LARGEST ? undefined : readOpenFile(fd, size);
}

/**
 * The bytes of a workspace's `.mcp.json`, read as a file of a folder nobody vouches for: never
 * through a symbolic link, never waiting on a FIFO, only a regular file of at most 1 MiB.
 * `undefined` when there is none; a string saying why when it cannot be read as one.
 */
export function readProjectFile(path: string): Buffer | string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | OWN_FILE_FLAGS);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP' || code === 'EMLINK') return 'it is a symbolic link';
    return `it cannot be opened (${String(code)})`;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return 'it is not a regular file';
    return readAll(fd, stats.size) ?? 'it is larger than 1 MiB';
  } finally {
    closeSync(fd);
  }
}

/** The digest the person trusted for `workspace`, if they did (a record of theirs, read safely). */
export function trustedDigest(stateDir: string, workspace: string): string | undefined {
  let opened: ReturnType<typeof openOwnFile>;
  try {
    opened = openOwnFile(trustRecordPath(stateDir, workspace));
  } catch {
    return undefined;
  }
  try {
    const bytes = readAll(opened.fd, opened.stats.size);
    const record = JSON.parse(bytes?.toString('utf8') ?? 'null') as Partial<TrustRecord> | null;
    return record?.version === 1 &&
      record.workspace === workspace &&
      typeof record.sha256 === 'string'
      ? record.sha256
      : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(opened.fd);
  }
}

/** Records that the person trusts `workspace`'s `.mcp.json` with exactly this digest. */
export function trustProjectFile(stateDir: string, workspace: string, sha256: string): void {
  const path = trustRecordPath(stateDir, workspace);
  const record: TrustRecord = { version: 1, workspace, sha256 };
  const bytes = Buffer.from(`${JSON.stringify(record, null, 2)}\n`);
  writePrivateFile(dirname(path), basename(path), bytes);
}
