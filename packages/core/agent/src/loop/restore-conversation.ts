import type { ModelMessage } from '../models/model.js';
import type { ConversationEntry } from './conversation-entry.js';
import { ConversationOrder, messageOf } from './conversation-order.js';
import { readConversationEntry } from './read-conversation-entry.js';
import { interruptedResult } from './tool-call-runner.js';

/** A conversation rebuilt from its entries. */
export interface RestoredConversation {
  /** The entries, checked and copied, followed by the closing ones. */
  readonly entries: readonly ConversationEntry[];
  /** What the model receives, in the order it happened (no system prompt). */
  readonly messages: readonly ModelMessage[];
  /** The entries that closed a turn left unfinished (none when the last turn ended). */
  readonly closing: readonly ConversationEntry[];
}

/**
 * The entries that end an unfinished turn: each open tool call gets a `TURN_CANCELLED`
 * result, then the turn ends `cancelled`, marked `interrupted`. None when no turn is open.
 */
export function closingEntries(order: ConversationOrder): ConversationEntry[] {
  if (!order.inTurn) return [];
  return [
    ...order.openCalls.map(
      (call): ConversationEntry => ({
        type: 'tool-result',
        toolCallId: call.id,
        result: interruptedResult(),
      }),
    ),
    { type: 'turn-end', reason: 'cancelled', interrupted: true },
  ];
}

/**
 * Rebuilds the messages of a conversation from its entries, checking each entry's fields and
 * that it may come where it is (see `ConversationOrder`); a turn left unfinished is closed.
 * Throws a `TypeError` naming the entry (`<what>[index]`) and what is wrong with it.
 */
export function restoreConversation(
  entries: readonly ConversationEntry[],
  what: string,
): RestoredConversation {
  if (!Array.isArray(entries)) throw new TypeError(`${what} must be an array of entries.`);
  const order = new ConversationOrder();
  const checked: ConversationEntry[] = [];
  for (const [index, value] of entries.entries()) {
    const read = readConversationEntry(value);
    if ('problem' in read) throw new TypeError(`${what}[${index}]: ${read.problem}.`);
    const problem = order.problem(read.entry);
    if (problem !== undefined) throw new TypeError(`${what}[${index}] ${problem}.`);
    order.advance(read.entry);
    checked.push(read.entry);
  }
  const closing = closingEntries(order);
  for (const entry of closing) checked.push(entry);
  const messages: ModelMessage[] = [];
  for (const entry of checked) {
    const message = messageOf(entry);
    if (message !== undefined) messages.push(message);
  }
  return { entries: checked, messages, closing };
}
