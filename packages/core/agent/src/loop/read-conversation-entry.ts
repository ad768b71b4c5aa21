import { CONVERSATION_ENTRY } from '../session/conversation-entry-shape.js';
import { type ReadMode, readShape } from '../session/shape/shape.js';
import type { ConversationEntry } from './conversation-entry.js';

export { POSED_STATE_LIMIT } from '../session/conversation-entry-shape.js';

const entryOf = (entry: ConversationEntry) => ({ entry });

const EXACT = CONVERSATION_ENTRY.exact ?? (() => false);

function read(
  value: unknown,
  mode: ReadMode,
): { readonly entry: ConversationEntry } | { readonly problem: string } {
  return readShape(CONVERSATION_ENTRY, value, mode, 'the entry', entryOf);
}

/**
 * Reads a value that should be a `ConversationEntry` (from a caller): a fresh, frozen copy of
 * its known fields, each read once, or what is wrong with it. Other fields are left out.
 */
export function readConversationEntry(
  value: unknown,
): { readonly entry: ConversationEntry } | { readonly problem: string } {
  return read(value, 'copy');
}

/**
 * `readConversationEntry` for a value fresh from `JSON.parse` that nobody else holds (a line of
 * a file): checked in place and returned itself, equal to the copy `readConversationEntry`
 * makes (but not frozen). Only an object holding a field to leave out is copied.
 */
export function readParsedConversationEntry(
  value: unknown,
): { readonly entry: ConversationEntry } | { readonly problem: string } {
  return read(value, 'keep');
}

/**
 * Whether a value fresh from `JSON.parse` is a `ConversationEntry` exactly as it is: what
 * `readParsedConversationEntry` would keep as it is, with nothing to leave out. `false` says
 * nothing more (read it with `readParsedConversationEntry` to learn what). A check alone, with
 * nothing made: loading a session runs it on every line.
 */
export function isExactConversationEntry(value: unknown): value is ConversationEntry {
  return EXACT(value);
}
