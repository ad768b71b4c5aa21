import type { ConversationEntry } from '../loop/conversation-entry.js';
import { readParsedConversationEntry } from '../loop/read-conversation-entry.js';
import { isSessionId } from './session-id.js';

/** The version of the line format; every line carries it as `v`. */
export const SESSION_FORMAT_VERSION = 1;

/** The first line of a session file: what the session is. */
export interface SessionHeader {
  readonly id: string;
  /** The working directory the session belongs to. */
  readonly cwd: string;
  /** When the session was created, as an ISO 8601 time. */
  readonly createdAt: string;
  /** The first line of the first message, shortened (see `sessionTitle`). */
  readonly title: string;
}

/** How a line as written starts: its version, then the first field's name. */
const VERSION_FIRST = `{"v":${SESSION_FORMAT_VERSION},`;
const QUOTE = 0x22;

/** A line as written: JSON with the format version first, then a newline. */
export function headerLine(header: SessionHeader): string {
  return `${JSON.stringify({ v: SESSION_FORMAT_VERSION, type: 'session', ...header })}\n`;
}

/** An entry of the conversation as a line. */
export function entryLine(entry: ConversationEntry): string {
  return `${JSON.stringify({ v: SESSION_FORMAT_VERSION, ...entry })}\n`;
}

/** What a line of a session file holds, or what is wrong with it. */
export type SessionLine =
  | { readonly header: SessionHeader }
  | { readonly entry: ConversationEntry }
  | { readonly problem: string; readonly newer?: true };

function readHeader(fields: Record<string, unknown>): SessionLine {
  const { id, cwd, createdAt, title } = fields;
  if (!isSessionId(id)) return { problem: 'the session id is not a lowercase UUID' };
  if (typeof cwd !== 'string' || cwd === '') return { problem: 'cwd must be a non-empty string' };
  if (typeof createdAt !== 'string' || Number.isNaN(Date.parse(createdAt))) {
    return { problem: 'createdAt must be an ISO 8601 time' };
  }
  if (typeof title !== 'string') return { problem: 'title must be a string' };
  return { header: Object.freeze({ id, cwd, createdAt, title }) };
}

/**
 * Reads one line of a session file (without its newline), trusting nothing: it must be a JSON
 * object of this format version, and a header or a conversation entry with every field right.
 */
export function readSessionLine(line: string): SessionLine {
  const cut = line.startsWith(VERSION_FIRST) && line.charCodeAt(VERSION_FIRST.length) === QUOTE;
  let value: unknown;
  try {
    // A line as dsh writes it starts with its version: parsed without it, the object is the
    // entry as it is, to be checked and kept (a line that is not JSON is not JSON without it).
    value = cut ? JSON.parse(`{${line.slice(VERSION_FIRST.length)}`) : JSON.parse(line);
  } catch {
    return { problem: 'it is not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { problem: 'it is not a JSON object' };
  }
  const fields = value as Record<string, unknown>;
  // A `v` found after the one cut off is a second one, which JSON says wins.
  const version = cut && fields.v === undefined ? SESSION_FORMAT_VERSION : fields.v;
  if (version !== SESSION_FORMAT_VERSION) {
    return typeof version === 'number' && version > SESSION_FORMAT_VERSION
      ? {
          problem: `it is in format ${version}, written by a newer version of dsh (this one reads format ${SESSION_FORMAT_VERSION})`,
          newer: true,
        }
      : { problem: `its format version is not ${SESSION_FORMAT_VERSION}` };
  }
  if (fields.type === 'session') return readHeader(fields);
  const read = readParsedConversationEntry(fields);
  return 'problem' in read ? { problem: read.problem } : read;
}
