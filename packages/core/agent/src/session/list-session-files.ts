import { constants } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { inertText } from '../files/inert-text.js';
import { OWN_FILE_FLAGS, ownFileProblem } from '../files/own-file.js';
import { systemCode } from './session-error.js';
import { isSessionId } from './session-id.js';
import { readSessionLine, type SessionHeader } from './session-line.js';

/** A saved session as a list shows it. */
export interface SessionInfo {
  readonly id: string;
  /** The working directory the session belongs to. */
  readonly cwd: string;
  /** The first line of its first message, shortened. */
  readonly title: string;
  readonly createdAt: Date;
  /** When its file was last written: the last thing said in it. */
  readonly updatedAt: Date;
}

/**
 * The order of a list of sessions: the most recently active first, then the most recently
 * created (file times can be coarser than a millisecond), then by id.
 */
export function compareSessionInfos(
  a: Pick<SessionInfo, 'id' | 'createdAt' | 'updatedAt'>,
  b: Pick<SessionInfo, 'id' | 'createdAt' | 'updatedAt'>,
): number {
  return (
    b.updatedAt.getTime() - a.updatedAt.getTime() ||
    b.createdAt.getTime() - a.createdAt.getTime() ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/** A header is a short line: a path and a title. Anything longer is not one of ours. */
const HEADER_BYTES = 16 * 1024;
/** Files read at once: enough to overlap the reads, few enough to stay clear of fd limits. */
const AT_ONCE = 32;

async function infoOf(
  path: string,
  skipped: (warning: string) => void,
): Promise<SessionInfo | undefined> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    // Never waiting (a FIFO) nor following a link; then checked on the open handle.
    handle = await open(path, constants.O_RDONLY | OWN_FILE_FLAGS);
    const stats = await handle.stat();
    const problem = ownFileProblem(stats);
    if (problem !== undefined) {
      skipped(`skipped ${inertText(path)}: it ${problem}`);
      return undefined;
    }
    const read = await handle.read(Buffer.alloc(HEADER_BYTES), 0, HEADER_BYTES, 0);
    const head = read.buffer.subarray(0, read.bytesRead);
    const newline = head.indexOf(0x0a);
    if (newline === -1) return undefined;
    const line = readSessionLine(head.toString('utf8', 0, newline));
    if (!('header' in line)) return undefined;
    const header: SessionHeader = line.header;
    return {
      id: header.id,
      cwd: header.cwd,
      title: header.title,
      createdAt: new Date(header.createdAt),
      updatedAt: stats.mtime,
    };
  } catch (error) {
    if (systemCode(error) === 'ELOOP' || systemCode(error) === 'EMLINK') {
      skipped(`skipped ${inertText(path)}: it is a symbolic link`);
    }
    // A file that went away or cannot be read is not listed.
    return undefined;
  } finally {
    await handle?.close();
  }
}

/**
 * The sessions saved in `folder` (of `cwd` only, when given), in the order of
 * `compareSessionInfos`. Files that are not sessions, or whose header is damaged, are left out;
 * so are those not safe to read (not a regular file of this user), told to `skipped`.
 */
export async function listSessionFiles(
  folder: string,
  cwd?: string,
  skipped: (warning: string) => void = () => {},
): Promise<SessionInfo[]> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if (systemCode(error) === 'ENOENT') return [];
    throw error;
  }
  const paths = names.flatMap((name) => {
    const id = name.endsWith('.jsonl') ? name.slice(0, -'.jsonl'.length) : '';
    return isSessionId(id) ? [{ id, path: join(folder, name) }] : [];
  });
  const infos: SessionInfo[] = [];
  for (let index = 0; index < paths.length; index += AT_ONCE) {
    const batch = await Promise.all(
      paths.slice(index, index + AT_ONCE).map(({ path }) => infoOf(path, skipped)),
    );
    for (const [offset, info] of batch.entries()) {
      // The header must name the file it is in: a copied file is not that session.
      if (info === undefined || info.id !== paths[index + offset]?.id) continue;
      if (cwd === undefined || info.cwd === cwd) infos.push(info);
    }
  }
  return infos.sort(compareSessionInfos);
}
