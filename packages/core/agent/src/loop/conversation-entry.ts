import type { PermissionOutcome, ToolError } from 'dsh-user-interaction';
import type { ModelMessage } from '../models/model.js';
import type { ToolCallDescription, ToolResult } from './agent-tool.js';

/** An assistant message of the model: an assistant entry keeps its tool calls and reasoning. */
type AssistantMessage = Extract<ModelMessage, { readonly role: 'assistant' }>;

/**
 * One event of a conversation, in the order it happened: what a session store writes as the
 * conversation goes, and what an agent restored from it is given back.
 */
export type ConversationEntry =
  /** The person's message: it starts a turn. */
  | { readonly type: 'prompt'; readonly text: string }
  /** One assistant step: its text, the tool calls it made, and the reasoning the server sent. */
  | ({ readonly type: 'assistant'; readonly text: string } & Pick<
      AssistantMessage,
      'toolCalls' | 'reasoning'
    >)
  /**
   * The decision on the next open tool call, made before it ran: what it would do, and who
   * decided (the person, a rule, the policy, or nobody: a denial).
   */
  | {
      readonly type: 'approval';
      readonly toolCallId: string;
      readonly description: ToolCallDescription;
      readonly outcome: PermissionOutcome;
    }
  /**
   * A question or an approval of the next open tool call was put to the person: written before
   * it is shown (not made durable on its own), so that a program that stops while it waits
   * poses it again when the conversation is restored (`ChatAgent.resume`).
   */
  | {
      readonly type: 'posed';
      readonly toolCallId: string;
      readonly kind: 'question' | 'approval';
      /**
       * For a question a tool puts to the person in the middle of its work: what the tool needs
       * to go on after a stop (`ToolContext.recordPending`), opaque to the agent. Written and
       * made durable before the question is shown; the call gets it back as `ToolContext.pending`
       * when the turn goes on (`ChatAgent.resume`).
       */
      readonly state?: string;
    }
  /** The result of the next open tool call: for a question, the answer or the error and its code. */
  | { readonly type: 'tool-result'; readonly toolCallId: string; readonly result: ToolResult }
  /**
   * The end of a turn that finished or was cancelled. `interrupted`: the program stopped before
   * the turn ended (a crash, a kill), and the turn was closed as cancelled when it was restored.
   */
  | {
      readonly type: 'turn-end';
      readonly reason: 'finished' | 'cancelled';
      readonly interrupted?: boolean;
    }
  /** The end of a turn stopped by the step limit or by a failure, with what went wrong. */
  | {
      readonly type: 'turn-end';
      readonly reason: 'step-limit' | 'error';
      readonly error: ToolError;
    };

/** Where an agent records its conversation as it happens (a session store's writer). */
export interface ConversationRecorder {
  /** Takes the next entry, in order. Never throws: a failure is reported by `flush`. */
  add(entry: ConversationEntry): void;
  /**
   * Resolves once every entry added so far is durably stored (a store may leave the end of a
   * finished turn to be made durable later: a turn found without it goes on from its last
   * answer, or is closed, on load); rejects when one cannot be.
   */
  flush(): Promise<void>;
  /**
   * Optional: resolves once every entry added so far has reached the system (written, not
   * necessarily durable), for a recorder that may hold entries back for a moment (a store still
   * making a new session's file). The agent waits for it before it asks the model about a
   * prompt and before a question is shown, so that a prompt acted on and a question on screen
   * are always in the file. `undefined` when nothing is held back.
   */
  written?(): Promise<void> | undefined;
}
