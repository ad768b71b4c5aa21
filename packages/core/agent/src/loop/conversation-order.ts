import type { ModelMessage, ModelToolCall } from '../models/model.js';
import type { ConversationEntry } from './conversation-entry.js';

/** The message an entry adds to what the model receives; a turn's end adds none. */
export function messageOf(entry: ConversationEntry): ModelMessage | undefined {
  switch (entry.type) {
    case 'prompt':
      return Object.freeze({ role: 'user', content: entry.text });
    case 'assistant':
      return Object.freeze({
        role: 'assistant',
        content: entry.text,
        ...(entry.toolCalls !== undefined &&
          entry.toolCalls.length > 0 && { toolCalls: entry.toolCalls }),
        ...(entry.reasoning !== undefined && { reasoning: entry.reasoning }),
      });
    case 'tool-result': {
      const { result, toolCallId } = entry;
      return Object.freeze(
        result.ok
          ? { role: 'tool', toolCallId, content: result.output }
          : { role: 'tool', toolCallId, content: result.output, error: result.error },
      );
    }
    case 'approval':
    case 'posed':
    case 'turn-end':
      return undefined;
  }
}

/**
 * The order every conversation keeps, so that it is always valid to send to a model: a turn
 * starts with a prompt and ends with a `turn-end`; every tool call of an assistant step gets
 * exactly one result, in the order of the calls, before anything else comes.
 */
export class ConversationOrder {
  #inTurn = false;
  /** The calls of the last assistant step; those from `#next` on still wait for their result. */
  #calls: readonly ModelToolCall[] = [];
  #next = 0;
  /** Whether the next open call was decided already (an `approval` came for it). */
  #decided = false;
  /** Whether that decision allowed it: it may have run, in part or in whole. */
  #allowed = false;
  /** What was put to the person and still waits (a `posed`, and no result since), if anything. */
  #posed: 'question' | 'approval' | undefined;

  /** Whether a turn has started and not ended. */
  get inTurn(): boolean {
    return this.#inTurn;
  }

  /** The calls still waiting for their result, in order. */
  get openCalls(): readonly ModelToolCall[] {
    return this.#calls.slice(this.#next);
  }

  /** Where `call` stands among the calls waiting for their result (0: the next), or -1. */
  openIndexOf(call: ModelToolCall): number {
    const index = this.#calls.indexOf(call, this.#next);
    return index === -1 ? -1 : index - this.#next;
  }

  /**
   * Whether the turn is unfinished while a question or an approval put to the person waits (a
   * `posed` for the next open call, which has no result): a restored conversation goes on with
   * that turn (`ChatAgent.resume`) rather than closing it.
   */
  get resumable(): boolean {
    return this.#inTurn && this.#posed !== undefined;
  }

  /** Whether the next open call was allowed to run (an `approval` that allowed it came for it). */
  get nextCallAllowed(): boolean {
    return this.#decided && this.#allowed;
  }

  /**
   * Whether nothing was stored for the next open call since its step: no decision, nothing put
   * to the person. Such a call had either not started or is of a tool that does not describe
   * its calls, which runs with nothing stored before it.
   */
  get nextCallUnmarked(): boolean {
    return this.waiting && !this.#decided && this.#posed === undefined;
  }

  /** What was put to the person for the next open call and still waits, if anything. */
  get nextCallPosed(): 'question' | 'approval' | undefined {
    return this.#posed;
  }

  /** Whether a tool call waits for its result. */
  get waiting(): boolean {
    return this.#next < this.#calls.length;
  }

  /** Why `entry` cannot come next, or `undefined` when it can. */
  problem(entry: ConversationEntry): string | undefined {
    switch (entry.type) {
      case 'prompt':
        return this.#inTurn ? 'starts a turn before the previous one ended' : undefined;
      case 'assistant':
        if (!this.#inTurn) return 'is an assistant step outside a turn';
        return this.waiting ? 'comes before every tool call got its result' : undefined;
      case 'approval': {
        const next = this.#calls[this.#next];
        if (next === undefined) return 'is an approval with no tool call waiting for it';
        if (this.#decided) return `decides ${JSON.stringify(entry.toolCallId)} a second time`;
        return next.id === entry.toolCallId
          ? undefined
          : `is the approval of ${JSON.stringify(entry.toolCallId)}, but ${JSON.stringify(next.id)} comes first`;
      }
      case 'posed': {
        const next = this.#calls[this.#next];
        if (next === undefined) return 'is a posed question with no tool call waiting for it';
        if (entry.kind === 'approval' && this.#decided) {
          return `poses an approval of ${JSON.stringify(entry.toolCallId)} after it was decided`;
        }
        return next.id === entry.toolCallId
          ? undefined
          : `is posed for ${JSON.stringify(entry.toolCallId)}, but ${JSON.stringify(next.id)} comes first`;
      }
      case 'tool-result': {
        const next = this.#calls[this.#next];
        if (next === undefined) return 'is a tool result with no tool call waiting for it';
        return next.id === entry.toolCallId
          ? undefined
          : `is the result of ${JSON.stringify(entry.toolCallId)}, but ${JSON.stringify(next.id)} comes first`;
      }
      case 'turn-end':
        if (!this.#inTurn) return 'ends a turn that did not start';
        return this.waiting ? 'ends the turn before every tool call got its result' : undefined;
      default:
        return 'is not a conversation entry';
    }
  }

  /** Moves past `entry`, which must be allowed (see `problem`). */
  advance(entry: ConversationEntry): void {
    switch (entry.type) {
      case 'prompt':
        this.#inTurn = true;
        return;
      case 'assistant':
        this.#calls = entry.toolCalls ?? [];
        this.#next = 0;
        this.#decided = false;
        this.#posed = undefined;
        return;
      case 'posed':
        this.#posed = entry.kind;
        return;
      case 'approval':
        this.#decided = true;
        this.#allowed = entry.outcome.allowed === true;
        return;
      case 'tool-result':
        this.#next++;
        this.#decided = false;
        // Answered (or ended): nothing waits for the person any more.
        this.#posed = undefined;
        return;
      case 'turn-end':
        this.#inTurn = false;
        this.#posed = undefined;
        return;
    }
  }
}
