import type { PermissionOutcome, ToolError } from 'dsh-user-interaction';
import type { RetryEvent } from '../models/model.js';
import type { ToolCallDescription, ToolResult } from './agent-tool.js';

/** Why a turn ended. `cancelled` is a result, not an error. */
export type TurnEndReason = 'finished' | 'cancelled' | 'step-limit' | 'error';

/** What a turn streams to its UI, in order. The last event is always `turn-end`. */
export type AgentEvent =
  /** A piece of the model's reasoning (a thinking model's chain of thought), as it arrives. */
  | { readonly type: 'reasoning'; readonly text: string }
  /**
   * The model request failed before anything of its answer streamed, and is sent again after
   * `delayMs` (0: at once): `attempt` of `attempts` comes next. `error` is what failed, as
   * `{ name, code, message }`. UIs announce it, such as "retrying in 2 s, attempt 2 of 3".
   */
  | RetryEvent
  /** A piece of the assistant's text, as it arrives. */
  | { readonly type: 'text'; readonly text: string }
  /** A tool call about to run. `arguments` is the parsed JSON, or the raw text if it is malformed. */
  | {
      readonly type: 'tool-call';
      readonly id: string;
      readonly name: string;
      readonly title: string;
      readonly arguments: unknown;
      /** What the call will do, for a tool that says (kind, paths, diff, command). */
      readonly description?: ToolCallDescription;
    }
  /**
   * The call with the same `id` was decided before it ran: allowed or denied, and by whom (the
   * person, a rule, the policy, or nobody). `warning`: the rule an "always" answer wrote could not be kept.
   */
  | {
      readonly type: 'tool-approval';
      readonly id: string;
      readonly name: string;
      readonly outcome: PermissionOutcome;
      readonly warning?: string;
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
