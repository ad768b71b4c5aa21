import type { ListSessionsResponse } from '@agentclientprotocol/sdk';
import type { SessionInfo } from 'dsh-agent';
import { invalidCursor } from './server-errors.js';

/** Sessions per `session/list` page. */
export const SESSION_LIST_PAGE_SIZE = 50;

interface Position {
  /** The `updatedAt` of the last session of the page, in milliseconds. */
  readonly t: number;
  readonly id: string;
}

function encode(position: Position): string {
  return Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
}

function decode(cursor: string): Position {
  try {
    const { t, id } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Position;
    if (Number.isFinite(t) && typeof id === 'string') return { t, id };
  } catch {
    // Not a cursor of ours: refused below.
  }
  throw invalidCursor(cursor);
}

/** Whether `info` comes after `position` in the order of the list (newest first, then by id). */
function after(info: SessionInfo, position: Position): boolean {
  const t = info.updatedAt.getTime();
  return t < position.t || (t === position.t && info.id > position.id);
}

/**
 * One page of `session/list` from the sessions in list order (newest first, then by id). The
 * cursor holds where the page ended (time and id), not an index, so that a session started or
 * moved between two requests neither repeats nor pushes another out of the next page; a
 * cursor this agent did not give is an invalid-params error.
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
    ...(more && { nextCursor: encode({ t: last.updatedAt.getTime(), id: last.id }) }),
  };
}

function firstAfter(infos: readonly SessionInfo[], position: Position): number {
  const index = infos.findIndex((info) => after(info, position));
  return index === -1 ? infos.length : index;
}
