import type { ToolError } from 'dsh-user-interaction';
import type { ToolResult } from './agent-tool.js';

/** Why a turn ended. `cancelled` is a result, not an error. */
export type TurnEndReason = 'finished' | 'cancelled' | 'step-limit' | 'error';

/** What a turn streams to its UI, in order. The last event is always `turn-end`. */
export type AgentEvent =
  /** A piece of the model's reasoning (a thinking model's chain of thought), as it arrives. */
  | { readonly type: 'reasoning'; readonly text: string }
  /** A piece of the assistant's text, as it arrives. */
  | { readonly type: 'text'; readonly text: string }
  /** A tool call about to run. `arguments` is the parsed JSON, or the raw text if it is malformed. */
  | {
      readonly type: 'tool-call';
      readonly id: string;
      readonly name: string;
      readonly title: string;
      readonly arguments: unknown;
    }
  /** The result of the tool call with the same `id`. */
  | {
      readonly type: 'tool-result';
      readonly id: string;
      readonly name: string;
      readonly result: ToolResult;
    }
  /** The turn ended; the agent is ready for the next one. */
  | { readonly type: 'turn-end'; readonly reason: 'finished' | 'cancelled' }
  | {
      readonly type: 'turn-end';
      readonly reason: 'step-limit' | 'error';
      /** What went wrong, as `{ name, code, message }`. */
      readonly error: ToolError;
    };

/** The `turn-end` event. */
export type TurnEndEvent = Extract<AgentEvent, { type: 'turn-end' }>;
