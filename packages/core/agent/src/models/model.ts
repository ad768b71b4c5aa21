import type { ToolError } from 'dsh-user-interaction';

/** A tool call as the model wrote it. */
export interface ModelToolCall {
  /** Unique within the conversation; tool results refer to it. */
  readonly id: string;
  /** The name of the tool to run. */
  readonly name: string;
  /** The arguments as JSON text, exactly as the model wrote them (possibly malformed). */
  readonly arguments: string;
}

/**
 * Reasoning a server sent with an assistant message (a "thinking" model's chain of thought). It is
 * kept exactly as received, because some servers (DeepSeek in thinking mode) require it back with
 * every message that made tool calls.
 */
export interface ModelReasoning {
  /** The reasoning text, exactly as received. */
  readonly text: string;
  /** The wire field it arrived in (such as `reasoning_content`), so it goes back in the same one. */
  readonly field?: string;
}

/** One message of a conversation, in a provider-neutral shape. */
export type ModelMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | {
      readonly role: 'assistant';
      readonly content: string;
      readonly toolCalls?: readonly ModelToolCall[];
      /** What the server sent as its reasoning for this message, when it sent any. */
      readonly reasoning?: ModelReasoning;
    }
  | {
      readonly role: 'tool';
      readonly toolCallId: string;
      /** The model-facing text of the result. */
      readonly content: string;
      /** Set when the tool failed; `content` then carries the same error as JSON. */
      readonly error?: ToolError;
    };

/** A tool as the model sees it. */
export interface ModelToolSchema {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments object. */
  readonly parameters: object;
}

/** One request to a model: the conversation so far and the tools it may call. */
export interface ModelRequest {
  readonly messages: readonly ModelMessage[];
  readonly tools: readonly ModelToolSchema[];
  /** Aborting it stops the request at once. */
  readonly signal: AbortSignal;
}

/** Why the model ended its step. */
export type ModelFinishReason = 'stop' | 'tool-calls' | 'length' | 'other';

/**
 * A request sent again after `delayMs`: `attempt` (2 for the first retry) of `attempts` comes
 * next; `error` is what failed, as `{ name, code, message }`. A model streams it, and the agent
 * passes it on to its UI.
 */
export interface RetryEvent {
  readonly type: 'retry';
  readonly attempt: number;
  readonly attempts: number;
  readonly delayMs: number;
  readonly error: ToolError;
}

/**
 * What a model streams: reasoning and text as they arrive, complete tool calls, then one `finish`.
 * A `reasoning-delta` names the wire `field` it came in when the model needs it sent back there.
 * A `retry` comes only before the rest: the step starts over after it.
 */
export type ModelEvent =
  | { readonly type: 'reasoning-delta'; readonly text: string; readonly field?: string }
  | { readonly type: 'text-delta'; readonly text: string }
  | { readonly type: 'tool-call'; readonly call: ModelToolCall }
  | { readonly type: 'finish'; readonly reason: ModelFinishReason }
  /**
   * The request failed before anything of the step streamed, and is sent again after
   * `delayMs`: `attempt` (2 for the first retry) of `attempts` comes next. `error` is what
   * failed, `{ name, code, message }`, such as `MODEL_TIMEOUT` for a server that sent nothing.
   */
  | RetryEvent;

/**
 * A language model. `stream` yields the events of one assistant step; it fails with a
 * `ModelError`, and on abort it ends (or throws) promptly.
 */
export interface Model {
  /** A short name for logs and UIs, such as `deepseek-flash` or `scripted:demo`. */
  readonly id: string;
  /** Streams one assistant step for the request. */
  stream(request: ModelRequest): AsyncIterable<ModelEvent>;
}
