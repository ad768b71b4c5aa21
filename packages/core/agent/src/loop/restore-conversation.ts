import { ASK_USER_QUESTION_TOOL_NAME } from 'dsh-user-interaction';
import type { ModelMessage, ModelToolCall } from '../models/model.js';
import type { ToolResult } from './agent-tool.js';
import type { ConversationEntry } from './conversation-entry.js';
import { ConversationOrder, messageOf } from './conversation-order.js';
import { readConversationEntry } from './read-conversation-entry.js';
import {
  interruptedResult,
  mayHaveStartedResult,
  stoppedWhileRunningResult,
} from './tool-call-runner.js';

/**
 * Where a restored conversation's unfinished turn goes on from (see `ConversationOrder.resumable`):
 * the order after its last entry, and the decision already stored for its next open call.
 */
export interface ResumePoint {
  readonly order: ConversationOrder;
  readonly decided: Extract<ConversationEntry, { type: 'approval' }> | undefined;
  /** What that call kept with the question it put to the person (`ToolContext.recordPending`). */
  readonly pending?: string;
}

/** A conversation rebuilt from its entries. */
export interface RestoredConversation {
  /** The entries, checked and copied, followed by the closing ones. */
  readonly entries: readonly ConversationEntry[];
  /** What the model receives, in the order it happened (no system prompt). */
  readonly messages: readonly ModelMessage[];
  /**
   * The entries that closed a turn left unfinished (none when the last turn ended, or when it
   * can go on: then `resume` is set).
   */
  readonly closing: readonly ConversationEntry[];
  /** Set when the last turn stopped while something was put to the person: it can go on. */
  readonly resume: ResumePoint | undefined;
}

/**
 * The result that closes the first open call of a turn left by a stop. It may have run when it
 * was allowed; and, unless it is the question tool, when nothing was stored for it (a tool
 * without `describe` runs with nothing stored first) or when it asked a question (a tool that
 * asks in the middle of its work had started). Then `TOOL_INTERRUPTED`, and the model is told to
 * check what it did. Otherwise (refused, waiting for its approval, a question) it did not run.
 */
function firstOpenCallResult(order: ConversationOrder, call: ModelToolCall): ToolResult {
  if (order.nextCallAllowed) return stoppedWhileRunningResult();
  const started = order.nextCallUnmarked || order.nextCallPosed === 'question';
  if (started && call.name !== ASK_USER_QUESTION_TOOL_NAME) return mayHaveStartedResult();
  return interruptedResult();
}

/**
 * The entries that end an unfinished turn: each open tool call gets a `TURN_CANCELLED`
 * result (but the first, when it may have run: `TOOL_INTERRUPTED`, see `firstOpenCallResult`),
 * then the turn ends `cancelled`, marked `interrupted`. None when no turn is open, and none when
 * `keepResumable` and the turn can go on (`ConversationOrder.resumable`).
 */
export function closingEntries(
  order: ConversationOrder,
  keepResumable = false,
): ConversationEntry[] {
  if (!order.inTurn || (keepResumable && order.resumable)) return [];
  return [
    ...order.openCalls.map(
      (call, index): ConversationEntry => ({
        type: 'tool-result',
        toolCallId: call.id,
        result: index === 0 ? firstOpenCallResult(order, call) : interruptedResult(),
      }),
    ),
    { type: 'turn-end', reason: 'cancelled', interrupted: true },
  ];
}

/**
 * Rebuilds the messages of a conversation from its entries, checking each entry's fields and
 * that it may come where it is (see `ConversationOrder`). A turn left unfinished is closed,
 * unless it stopped while something was put to the person: then `resume` says where it goes
 * on (and nothing closes it). Throws a `TypeError` naming the entry (`<what>[index]`) and what
 * is wrong with it.
 */
export function restoreConversation(
  entries: readonly ConversationEntry[],
  what: string,
): RestoredConversation {
  if (!Array.isArray(entries)) throw new TypeError(`${what} must be an array of entries.`);
  const order = new ConversationOrder();
  const checked: ConversationEntry[] = [];
  let decided: Extract<ConversationEntry, { type: 'approval' }> | undefined;
  let pending: string | undefined;
  for (const [index, value] of entries.entries()) {
    const read = readConversationEntry(value);
    if ('problem' in read) throw new TypeError(`${what}[${index}]: ${read.problem}.`);
    const { entry } = read;
    const problem = order.problem(entry);
    if (problem !== undefined) throw new TypeError(`${what}[${index}] ${problem}.`);
    order.advance(entry);
    checked.push(entry);
    if (entry.type === 'approval') decided = entry;
    else if (entry.type !== 'posed') decided = undefined;
    if (entry.type === 'posed') pending = entry.state ?? pending;
    else if (entry.type !== 'approval') pending = undefined;
  }
  const resume = !order.resumable
    ? undefined
    : pending === undefined
      ? { order, decided }
      : { order, decided, pending };
  const closing = closingEntries(order, true);
  for (const entry of closing) checked.push(entry);
  const messages: ModelMessage[] = [];
  for (const entry of checked) {
    const message = messageOf(entry);
    if (message !== undefined) messages.push(message);
  }
  return { entries: checked, messages, closing, resume };
}
