import type { PermissionOutcome } from 'dsh-user-interaction';
import type { ModelMessage, ModelReasoning, ModelToolCall } from '../models/model.js';
import type { TurnEndEvent } from './agent-event.js';
import type { ToolCallDescription, ToolResult } from './agent-tool.js';
import type { ConversationEntry, ConversationRecorder } from './conversation-entry.js';
import { ConversationOrder, messageOf } from './conversation-order.js';
import { cancelledResult } from './tool-call-runner.js';

/** Failures of `TurnLog.flushSoon`, by recorder, until a `flush` reports them. */
const laterFailures = new WeakMap<ConversationRecorder, { error: unknown }>();

/**
 * Writes one turn into the conversation so that it stays valid however the turn ends: streamed
 * text is kept, and every tool call of an assistant message gets exactly one result, in order.
 * Each entry also goes to the recorder, if any, as it is written.
 */
export class TurnLog {
  /** Assistant text streamed in the current step, not yet written. */
  private draft = '';
  /** Reasoning streamed in the current step, kept exactly as received, not yet written. */
  private reasoning: { text: string; field: string | undefined } | undefined;
  /**
   * `order`: where the conversation stands, for a turn that goes on from a restored one (see
   * `runTurn`); a new turn starts from a fresh one.
   */
  constructor(
    private readonly messages: ModelMessage[],
    private readonly recorder?: ConversationRecorder,
    private readonly order = new ConversationOrder(),
  ) {}

  /** The calls of the last step still waiting for their result, in order. */
  get openCalls(): readonly ModelToolCall[] {
    return this.order.openCalls;
  }

  /**
   * Writes the person's prompt: the turn starts. Act on it (ask the model) once what this returns
   * resolves: the recorder has then written it (`ConversationRecorder.written`).
   */
  addPrompt(prompt: string): Promise<void> | undefined {
    this.add({ type: 'prompt', text: prompt });
    return this.recorder?.written?.();
  }

  /** Adds streamed text to the current step. */
  addText(text: string): void {
    this.draft += text;
  }

  /** Adds streamed reasoning to the current step; `field` is where the server sent it. */
  addReasoning(text: string, field: string | undefined): void {
    if (this.reasoning === undefined) this.reasoning = { text, field };
    else this.reasoning.text += text;
  }

  /** Writes the step's assistant message with its tool calls and its reasoning. */
  commitStep(calls: readonly ModelToolCall[]): void {
    const text = this.draft;
    const reasoning = this.takeReasoning();
    this.draft = '';
    this.add({
      type: 'assistant',
      text,
      ...(calls.length > 0 && { toolCalls: Object.freeze([...calls]) }),
      ...(reasoning !== undefined && { reasoning }),
    });
  }

  /** Writes the result of an open call; any call before it that has none is closed first. */
  addResult(call: ModelToolCall, result: ToolResult): void {
    const index = this.order.openIndexOf(call);
    if (index === -1) return;
    // Results must follow the order of the calls: any skipped call is closed first.
    if (index > 0) {
      for (const skipped of this.order.openCalls.slice(0, index)) {
        this.addToolResult(skipped, cancelledResult());
      }
    }
    this.addToolResult(call, result);
  }

  /** Writes the decision on an open call, made before it runs. */
  addApproval(
    call: ModelToolCall,
    description: ToolCallDescription,
    outcome: PermissionOutcome,
  ): void {
    if (this.order.openIndexOf(call) === -1) return;
    this.add({ type: 'approval', toolCallId: call.id, description, outcome });
  }

  /**
   * Writes that a question or an approval of an open call is put to the person, right before it
   * is shown; made durable with whatever is flushed next, never on its own. Show it once what
   * this returns resolves: the recorder has then written it (`ConversationRecorder.written`).
   */
  addPosed(call: ModelToolCall, kind: 'question' | 'approval'): Promise<void> | undefined {
    if (this.order.openIndexOf(call) === 0) this.add({ type: 'posed', toolCallId: call.id, kind });
    return this.recorder?.written?.();
  }

  /**
   * Writes that an open call puts a question to the person in the middle of its work, with the
   * `state` it needs to go on after a stop, and makes it durable: show the question once what
   * this returns resolves. Rejects when it cannot be stored.
   */
  async addPending(call: ModelToolCall, state: string): Promise<void> {
    if (this.order.openIndexOf(call) !== 0) return;
    this.add({ type: 'posed', toolCallId: call.id, kind: 'question', state });
    await this.flush();
  }

  /**
   * Ends the turn with `end`: keeps streamed text, closes every open call as cancelled, and
   * writes the turn's end. Idempotent.
   */
  close(end: TurnEndEvent): void {
    if (!this.order.inTurn) return;
    if (this.draft !== '') this.commitStep([]);
    // Reasoning of a step that wrote nothing has no message to go with.
    this.reasoning = undefined;
    for (const call of this.order.openCalls) this.addToolResult(call, cancelledResult());
    this.add(
      end.reason === 'step-limit' || end.reason === 'error'
        ? { type: 'turn-end', reason: end.reason, error: end.error }
        : { type: 'turn-end', reason: end.reason },
    );
  }

  /** Resolves once the recorder has stored every entry so far; rejects when it cannot. */
  async flush(): Promise<void> {
    const { recorder } = this;
    if (recorder === undefined) return;
    await recorder.flush();
    const failed = laterFailures.get(recorder);
    if (failed === undefined) return;
    laterFailures.delete(recorder);
    throw failed.error;
  }

  /**
   * Starts storing every entry so far without waiting for it (for entries the agent may go on
   * with before they are durable). A failure is reported by the next `flush` with the same
   * recorder, in this turn or, when it comes after the turn's end, in the next one.
   */
  flushSoon(): void {
    const { recorder } = this;
    if (recorder === undefined) return;
    // A recorder's flush may return nothing, or throw at once: both are taken as its answer.
    Promise.resolve()
      .then(() => recorder.flush())
      .catch((error: unknown) => {
        if (!laterFailures.has(recorder)) laterFailures.set(recorder, { error });
      });
  }

  private takeReasoning(): ModelReasoning | undefined {
    const reasoning = this.reasoning;
    this.reasoning = undefined;
    if (reasoning === undefined) return undefined;
    return Object.freeze(
      reasoning.field === undefined
        ? { text: reasoning.text }
        : { text: reasoning.text, field: reasoning.field },
    );
  }

  private addToolResult(call: ModelToolCall, result: ToolResult): void {
    this.add({ type: 'tool-result', toolCallId: call.id, result });
  }

  private add(entry: ConversationEntry): void {
    this.order.advance(entry);
    const message = messageOf(entry);
    if (message !== undefined) this.messages.push(message);
    this.recorder?.add(Object.freeze(entry));
  }
}
