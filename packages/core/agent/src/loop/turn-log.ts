import type { ModelMessage, ModelReasoning, ModelToolCall } from '../models/model.js';
import type { ToolResult } from './agent-tool.js';
import { cancelledResult } from './tool-call-runner.js';

/**
 * Writes one turn into the conversation so that it stays valid however the turn ends: streamed
 * text is kept, and every tool call of an assistant message gets exactly one result, in order.
 */
export class TurnLog {
  /** Assistant text streamed in the current step, not yet written. */
  private draft = '';
  /** Reasoning streamed in the current step, kept exactly as received, not yet written. */
  private reasoning: { text: string; field: string | undefined } | undefined;
  /** Calls written in an assistant message and still waiting for their result, in order. */
  private open: ModelToolCall[] = [];

  constructor(private readonly messages: ModelMessage[]) {}

  /** Writes the person's prompt. */
  addPrompt(prompt: string): void {
    this.messages.push(Object.freeze({ role: 'user', content: prompt }));
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
    const content = this.draft;
    const reasoning = this.takeReasoning();
    this.draft = '';
    this.messages.push(
      Object.freeze({
        role: 'assistant',
        content,
        ...(calls.length > 0 && { toolCalls: Object.freeze([...calls]) }),
        ...(reasoning !== undefined && { reasoning }),
      }),
    );
    this.open = [...calls];
  }

  /** Writes the result of the next open call, which must be `call`. */
  addResult(call: ModelToolCall, result: ToolResult): void {
    const index = this.open.indexOf(call);
    if (index === -1) return;
    // Results must follow the order of the calls: any skipped call is closed first.
    for (const skipped of this.open.slice(0, index)) this.write(skipped, cancelledResult());
    this.open = this.open.slice(index + 1);
    this.write(call, result);
  }

  /** Ends the turn: keeps streamed text, and closes every open call as cancelled. Idempotent. */
  close(): void {
    if (this.draft !== '') this.commitStep([]);
    // Reasoning of a step that wrote nothing has no message to go with.
    this.reasoning = undefined;
    const open = this.open;
    this.open = [];
    for (const call of open) this.write(call, cancelledResult());
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

  private write(call: ModelToolCall, result: ToolResult): void {
    this.messages.push(
      Object.freeze(
        result.ok
          ? { role: 'tool', toolCallId: call.id, content: result.output }
          : { role: 'tool', toolCallId: call.id, content: result.output, error: result.error },
      ),
    );
  }
}
