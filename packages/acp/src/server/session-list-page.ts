import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ListSessionsResponse } from '@agentclientprotocol/sdk';
import { compareSessionInfos, type SessionInfo } from 'dsh-agent';
import { invalidCursor } from './server-errors.js';

/** Sessions per `session/list` page. */
export const SESSION_LIST_PAGE_SIZE = 50;

/** Where a page ended: the last session's `updatedAt` and `createdAt` (ms) and id. */
interface Position {
  readonly t: number;
  readonly c: number;
  readonly id: string;
}

/** Bytes of a cursor's MAC (HMAC-SHA-256, whole). */
const MAC_BYTES = 32;

// Made at the first cursor, not at import: a process that never pages pays nothing. A cursor
// is good for the life of the process that gave it, as ACP's opaque cursors are.
let cursorKey: Buffer | undefined;

function mac(body: Buffer): Buffer {
  cursorKey ??= randomBytes(32);
  return createHmac('sha256', cursorKey).update(body).digest();
}

/** The cursor of `position`: its JSON and a MAC of it keyed per process, base64url. */
function encode(position: Position): string {
  const body = Buffer.from(JSON.stringify(position), 'utf8');
  return Buffer.concat([mac(body), body]).toString('base64url');
}

/** The position a cursor of this process holds; anything else (forged, altered, another process's) is `-32602`. */
function decode(cursor: string): Position {
  const bytes = Buffer.from(cursor, 'base64url');
  // base64url decoding skips what is not base64url: only the canonical text of the bytes is ours.
  if (bytes.length > MAC_BYTES && bytes.toString('base64url') === cursor) {
    const body = bytes.subarray(MAC_BYTES);
    if (timingSafeEqual(bytes.subarray(0, MAC_BYTES), mac(body))) {
      const { t, c, id } = JSON.parse(body.toString('utf8')) as Position;
      if (Number.isFinite(t) && Number.isFinite(c) && typeof id === 'string') return { t, c, id };
    }
  }
  throw invalidCursor(cursor);
}

/** Whether `info` comes after `position` in the order of the list (`compareSessionInfos`). */
function after(info: SessionInfo, position: Position): boolean {
  const last = {
    id: position.id,
    createdAt: new Date(position.c),
    updatedAt: new Date(position.t),
  };
  return compareSessionInfos(info, last) > 0;
}

/**
 * One page of `session/list` from the sessions in list order (`compareSessionInfos`: newest
 * first). The cursor holds where the page ended (times and id), not an index, so that a session started or
 * moved between two requests neither repeats nor pushes another out of the next page. A cursor
 * carries a MAC keyed per process: one this process did not give is an invalid-params error.
 */
export function sessionListPage(
  infos: readonly SessionInfo[],
  cursor: string | null | undefined,
  pageSize = SESSION_LIST_PAGE_SIZE,
): ListSessionsResponse {
  const start = cursor == null ? 0 : firstAfter(infos, decode(cursor));
  const page = infos.slice(start, start + pageSize);
  const last = page.at(-1);
  const more = start + page.length < infos.length && last !== undefined;
  return {
    sessions: page.map((info) => ({
      sessionId: info.id,
      cwd: info.cwd,
      title: info.title,
      updatedAt: info.updatedAt.toISOString(),
    })),
    ...(more && {
      nextCursor: encode({
        t: last.updatedAt.getTime(),
        c: last.createdAt.getTime(),
        id: last.id,
      }),
    }),
  };
}

function firstAfter(infos: readonly SessionInfo[], position: Position): number {
  const index = infos.findIndex((info) => after(info, position));
  return index === -1 ? infos.length : index;
}
