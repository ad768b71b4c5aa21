// A conversation's entries, declared once: `ConversationEntry` is the type this declaration
// reads (see `conversation-entry.ts`), and the same declaration reads and checks a session
// file's lines and a caller's conversation (`read-conversation-entry.ts`).
import {
  isUserInteractionErrorCode,
  PERMISSION_CHOICES,
  type PermissionDecider,
  type PermissionOutcome,
} from 'dsh-user-interaction';
import type { ModelReasoning, ModelToolCall } from '../models/model.js';
import { list, union } from './shape/list-and-union.js';
import { absent, object, objectOf, optional } from './shape/object-shape.js';
import {
  boolean,
  literal,
  nonEmptyText,
  oneOf,
  recognised,
  type Shape,
  type ShapeType,
  text,
} from './shape/shape.js';
import { TOOL_CALL_DESCRIPTION, TOOL_ERROR, TOOL_RESULT } from './tool-shapes.js';

/** The longest state a tool may keep with a posed question (`ToolContext.recordPending`). */
export const POSED_STATE_LIMIT = 1_000_000;

const TOOL_CALL = objectOf<ModelToolCall>()({ id: nonEmptyText, name: text, arguments: text });

const REASONING = objectOf<ModelReasoning>()({ text, field: optional(text) });

const DECIDER: Shape<PermissionDecider> = union('kind', [
  object({ kind: literal('person'), choice: oneOf(PERMISSION_CHOICES), rule: optional(text) }),
  object({ kind: literal('rule'), rule: text, source: text }),
  object({ kind: literal('policy'), reason: text }),
  object({
    kind: literal('unanswered'),
    code: recognised('a user interaction code', isUserInteractionErrorCode),
    message: text,
  }),
]);

const ALLOWING = new Set(['allow_once', 'allow_always']);

const DECIDED = object({ allowed: boolean, decidedBy: DECIDER }, ({ allowed, decidedBy }) =>
  allowed && decidedBy.kind === 'unanswered'
    ? 'an unanswered approval cannot allow a call'
    : decidedBy.kind === 'person' && allowed !== ALLOWING.has(decidedBy.choice)
      ? 'outcome.allowed does not match the person’s choice'
      : undefined,
);

/**
 * How an approval ended (the contract's `PermissionOutcome`): its check keeps an unanswered
 * approval from allowing, which the contract's type says with two variants.
 */
const OUTCOME = DECIDED as unknown as Shape<PermissionOutcome>;
const outcomeIsNarrower: PermissionOutcome extends ShapeType<typeof DECIDED> ? true : never = true;
void outcomeIsNarrower;

/**
 * One event of a conversation, in the order it happened: what a session store writes as the
 * conversation goes, and what an agent restored from it is given back.
 */
export const CONVERSATION_ENTRY = union('type', [
  /** The person's message: it starts a turn. */
  object({ type: literal('prompt'), text }),
  /** One assistant step: its text, the tool calls it made, and the reasoning the server sent. */
  object({
    type: literal('assistant'),
    text,
    /** The tool calls of the step; an empty list is none (left out when read). */
    toolCalls: optional(list(TOOL_CALL), (calls) => calls.length === 0),
    /** What the server sent as its reasoning for this step, when it sent any. */
    reasoning: optional(REASONING),
  }),
  /**
   * The decision on the next open tool call, made before it ran: what it would do, and who
   * decided (the person, a rule, the policy, or nobody: a denial).
   */
  object({
    type: literal('approval'),
    toolCallId: text,
    description: TOOL_CALL_DESCRIPTION,
    outcome: OUTCOME,
  }),
  /**
   * A question or an approval of the next open tool call was put to the person: written before
   * it is shown (not made durable on its own), so that a program that stops while it waits
   * poses it again when the conversation is restored (`ChatAgent.resume`).
   */
  object(
    {
      type: literal('posed'),
      toolCallId: text,
      kind: oneOf(['question', 'approval']),
      /**
       * For a question a tool puts to the person in the middle of its work: what the tool needs
       * to go on after a stop (`ToolContext.recordPending`), opaque to the agent. Written and
       * made durable before the question is shown; the call gets it back as `ToolContext.pending`
       * when the turn goes on (`ChatAgent.resume`).
       */
      state: optional(text),
    },
    ({ kind, state }) =>
      state === undefined
        ? undefined
        : kind !== 'question'
          ? 'posed.state is kept for a question only'
          : state.length > POSED_STATE_LIMIT
            ? `posed.state is over ${POSED_STATE_LIMIT} characters`
            : undefined,
  ),
  /** The result of the next open tool call: for a question, the answer or the error and its code. */
  object({ type: literal('tool-result'), toolCallId: text, result: TOOL_RESULT }),
  union('reason', [
    /**
     * The end of a turn that finished or was cancelled. `interrupted`: the program stopped
     * before the turn ended (a crash, a kill), and the turn was closed as cancelled when it
     * was restored. `false` says nothing: it is left out when read.
     */
    object({
      type: literal('turn-end'),
      reason: oneOf(['finished', 'cancelled']),
      interrupted: optional(boolean, (interrupted) => !interrupted),
      error: absent('a turn that finished or was cancelled has no error'),
    }),
    /** The end of a turn stopped by the step limit or by a failure, with what went wrong. */
    object({
      type: literal('turn-end'),
      reason: oneOf(['step-limit', 'error']),
      error: TOOL_ERROR,
    }),
  ]),
]);
