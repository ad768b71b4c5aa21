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
/** How a line as written starts: its version, then the quote that opens the next field's name. */
const WRITTEN_START = `${VERSION_FIRST}"`;

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

/** What `parseLine` gives for a line that is not JSON. */
export const NOT_JSON: unique symbol = Symbol('not JSON');

/**
 * Whether the line of `text` at `start` starts as dsh writes it: its version, then a field. Such
 * a line is parsed without its version (see `parseLine`).
 */
export function startsAsWritten(text: string, start: number): boolean {
  // Compared a character at a time: `startsWith` at a position costs more than the comparison.
  for (let at = 0; at < WRITTEN_START.length; at++) {
    if (text.charCodeAt(start + at) !== WRITTEN_START.charCodeAt(at)) return false;
  }
  return true;
}

const SPACE = 0x20;
const OPEN_BRACE = 0x7b;

const NEWLINE = 0x0a;

/**
 * For a file that is all ASCII (`bytes`): blanks out, in `bytes`, the version at the start of
 * each line as written (`{"v":1,"type"…` becomes `      {"type"…`), adds where each such line
 * starts to `written`, in order, and gives the bytes decoded as Latin-1 (all ASCII, they read
 * the same as UTF-8, and are copied rather than decoded; a byte's place is its character's). A
 * line read there (`parseLine`'s `blanked`) is parsed where it lies, and parses as it does with
 * its version cut off (JSON allows blanks before a value), with no string made to join `{` to
 * the rest of it. Lines keep their places, and newlines are left as they are.
 */
export function blankVersions(bytes: Buffer, written: number[]): string {
  for (let start = 0; start < bytes.length; ) {
    if (writtenAt(bytes, start)) {
      written.push(start);
      const brace = start + VERSION_FIRST.length - 1;
      for (let at = start; at < brace; at++) bytes[at] = SPACE;
      bytes[brace] = OPEN_BRACE;
    }
    const newline = bytes.indexOf(NEWLINE, start);
    if (newline === -1) break;
    start = newline + 1;
  }
  return bytes.toString('latin1');
}

/** `WRITTEN_START` as bytes. */
const WRITTEN_BYTES = Buffer.from(WRITTEN_START, 'latin1');

/** `startsAsWritten` on the bytes of a file that is all ASCII (cheaper than on its text). */
function writtenAt(bytes: Buffer, start: number): boolean {
  for (let at = 0; at < WRITTEN_BYTES.length; at++) {
    if (bytes[start + at] !== WRITTEN_BYTES[at]) return false;
  }
  return true;
}

/**
 * The JSON of the line of `text` from `start` to `end` (its newline, or the end), parsed once,
 * or `NOT_JSON`. `cut`: it starts as written (`startsAsWritten`), and is parsed without its
 * version: the object is the entry as it is, to be checked and kept (a line that is not JSON is
 * not JSON without it). `blanked`: `text` is the copy `blankVersions` made, where that version
 * is blanked out already.
 */
export function parseLine(
  text: string,
  start: number,
  end: number,
  cut: boolean,
  blanked = false,
): unknown {
  try {
    return JSON.parse(
      cut && !blanked
        ? `{${text.slice(start + VERSION_FIRST.length, end)}`
        : text.slice(start, end),
    );
  } catch {
    return NOT_JSON;
  }
}

/**
 * What a line holds, from its JSON parsed by `parseLine` (`cut` as there), trusting nothing: it
 * must be a JSON object of this format version, and a header or a conversation entry with every
 * field right.
 */
export function readParsedLine(value: unknown, cut: boolean): SessionLine {
  if (value === NOT_JSON) return { problem: 'it is not JSON' };
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

/**
 * Reads one line of a session file (without its newline), trusting nothing: it must be a JSON
 * object of this format version, and a header or a conversation entry with every field right.
 */
export function readSessionLine(line: string): SessionLine {
  const cut = startsAsWritten(line, 0);
  return readParsedLine(parseLine(line, 0, line.length, cut), cut);
}
