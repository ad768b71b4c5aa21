import type { SessionNotification, SessionUpdate } from '@agentclientprotocol/sdk';
import { AsyncQueue } from './async-queue.js';

type ToolCall = Extract<SessionUpdate, { sessionUpdate: 'tool_call' }>;
type ToolCallUpdate = Extract<SessionUpdate, { sessionUpdate: 'tool_call_update' }>;

/** Every `session/update` a client received, kept per session, in order. */
export class SessionUpdates {
  readonly all: SessionNotification[] = [];
  readonly #bySession = new Map<string, AsyncQueue<SessionUpdate>>();

  readonly handler = ({ params }: { params: SessionNotification }): void => {
    this.all.push(params);
    this.of(params.sessionId).push(params.update);
  };

  /** The updates of one session: `.all` so far, `.next()` to wait for the next one. */
  of(sessionId: string): AsyncQueue<SessionUpdate> {
    let queue = this.#bySession.get(sessionId);
    if (queue === undefined) {
      queue = new AsyncQueue<SessionUpdate>();
      this.#bySession.set(sessionId, queue);
    }
    return queue;
  }

  /** The assistant's text of a session so far. */
  text(sessionId: string): string {
    return this.of(sessionId)
      .all.map((update) =>
        update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text'
          ? update.content.text
          : '',
      )
      .join('');
  }

  /** The model's reasoning of a session so far, as its thought chunks carried it. */
  thoughts(sessionId: string): string {
    return this.of(sessionId)
      .all.map((update) =>
        update.sessionUpdate === 'agent_thought_chunk' && update.content.type === 'text'
          ? update.content.text
          : '',
      )
      .join('');
  }

  toolCalls(sessionId: string): ToolCall[] {
    return this.of(sessionId).all.filter(
      (update): update is ToolCall => update.sessionUpdate === 'tool_call',
    );
  }

  toolCallUpdates(sessionId: string): ToolCallUpdate[] {
    return this.of(sessionId).all.filter(
      (update): update is ToolCallUpdate => update.sessionUpdate === 'tool_call_update',
    );
  }

  /** The text content of the update that ended a tool call. */
  resultText(sessionId: string, toolCallId: string): string | undefined {
    const update = this.toolCallUpdates(sessionId).find((entry) => entry.toolCallId === toolCallId);
    const block = update?.content?.[0];
    return block?.type === 'content' && block.content.type === 'text'
      ? block.content.text
      : undefined;
  }
}
