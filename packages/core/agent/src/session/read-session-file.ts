import { isAscii } from 'node:buffer';
import { inertText } from '../files/inert-text.js';
import type { ConversationEntry } from '../loop/conversation-entry.js';
import { ConversationOrder } from '../loop/conversation-order.js';
import { isExactConversationEntry } from '../loop/read-conversation-entry.js';
import { closingEntries } from '../loop/restore-conversation.js';
import { SessionError } from './session-error.js';
import {
  blankVersions,
  parseLine,
  readParsedLine,
  type SessionHeader,
  startsAsWritten,
} from './session-line.js';

/** A session file as read: its header, its conversation, and how to go on appending to it. */
export interface SessionFileContents {
  readonly header: SessionHeader;
  /** Every entry of the file, in order. */
  readonly entries: readonly ConversationEntry[];
  /** The entries that close a turn the file leaves unfinished (a crash in the middle of it). */
  readonly closing: readonly ConversationEntry[];
  /** Bytes of complete, valid lines: what stays when appending goes on. */
  readonly validLength: number;
  /** Whether the last valid line lacks its newline (it was written whole but for it). */
  readonly needsNewline: boolean;
  /** What was skipped: a torn last line. */
  readonly warnings: readonly string[];
}

const NEWLINE = 0x0a;

/**
 * Reads a session file, trusting nothing: every line must be valid and may come where it is.
 * Only a last line without its newline can be torn (dsh writes each line whole, newline
 * included, in one write): an invalid one is skipped with a warning. Any other line that is
 * not understood (damaged, or in a newer format) throws `SESSION_INVALID` naming the file and
 * the line; nothing is skipped then, so the file is left as it is. `bytes` are the reader's to
 * overwrite (the version at the start of its lines, see `blankVersions`): read from the file
 * for it alone.
 */
export function readSessionFile(path: string, bytes: Buffer): SessionFileContents {
  const shown = inertText(path);
  const invalid = (line: number, problem: string, newer = false): never => {
    throw new SessionError(
      newer
        ? `The session file ${shown} cannot be read at line ${line}: ${problem}. Update dsh to go on with it.`
        : `The session file ${shown} is damaged at line ${line}: ${problem}. It was changed by something other than dsh; repair or remove it.`,
      'SESSION_INVALID',
    );
  };
  let header: SessionHeader | undefined;
  const order = new ConversationOrder();
  const entries: ConversationEntry[] = [];
  const warnings: string[] = [];
  // Decoded once, then cut into lines: each line is parsed once, where it lies. Text that is all
  // ASCII reads the same as Latin-1, which is copied rather than decoded (a tenth of the time),
  // once the version of each line as written is blanked out (see `blankVersions`): the lines are
  // then cut and parsed in that copy, where `written` says which were blanked.
  const written: number[] = [];
  const blanked = isAscii(bytes) ? blankVersions(bytes, written) : undefined;
  const text = blanked ?? bytes.toString('utf8');
  let nextWritten = 0;
  let validLength = bytes.length;
  let needsNewline = false;
  let start = 0;
  for (let line = 1; start < text.length; line++) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    let cut: boolean;
    if (blanked === undefined) cut = startsAsWritten(text, start);
    else {
      cut = written[nextWritten] === start;
      if (cut) nextWritten++;
    }
    const value = parseLine(text, start, end, cut, blanked !== undefined);
    needsNewline = newline === -1;
    start = end + 1;
    // A line as dsh writes it, right as it is (the common case): checked once and kept. Its
    // version was cut off and it has no other (`v` is no field of an entry): it is of this
    // format, and no header (`session` is no entry's type).
    if (cut && header !== undefined && isExactConversationEntry(value)) {
      const problem = order.problem(value);
      if (problem !== undefined) invalid(line, `this ${value.type} ${problem}`);
      order.advance(value);
      entries.push(value);
      continue;
    }
    const read = readParsedLine(value, cut);
    if ('problem' in read) {
      // A line with its newline was written whole; a newer format is understood, not torn.
      if (!needsNewline || read.newer === true) invalid(line, read.problem, read.newer);
      if (header === undefined) invalid(line, `the header is unreadable (${read.problem})`);
      warnings.push(
        `skipped the last line of ${shown} (${read.problem}): the program stopped while writing it`,
      );
      // What stays is every byte up to the last newline (a torn character counts as written).
      validLength = bytes.lastIndexOf(NEWLINE) + 1;
      needsNewline = false;
      break;
    }
    if ('header' in read) {
      if (header !== undefined) invalid(line, 'a second header');
      header = read.header;
    } else {
      if (header === undefined) invalid(line, 'the file does not start with a session header');
      const problem = order.problem(read.entry);
      if (problem !== undefined) invalid(line, `this ${read.entry.type} ${problem}`);
      order.advance(read.entry);
      entries.push(read.entry);
    }
  }
  if (header === undefined) return invalid(1, 'the file is empty');
  return {
    header,
    entries,
    closing: closingEntries(order, true),
    validLength,
    needsNewline,
    warnings,
  };
}
