import type { SessionUpdate, ToolCallContent, ToolKind } from '@agentclientprotocol/sdk';
import {
  type AgentEvent,
  formatDuration,
  type RetryEvent,
  type ToolCallDescription,
} from 'dsh-agent';
import { ASK_USER_QUESTION_TOOL_NAME } from 'dsh-user-interaction';
import { decisionNote } from '../permissions/decision-note.js';
import { changeContent, textContent, toolCallLocations } from '../permissions/tool-call-content.js';

type ToolCallEvent = Extract<AgentEvent, { type: 'tool-call' }>;
type ToolApprovalEvent = Extract<AgentEvent, { type: 'tool-approval' }>;
type ToolResultEvent = Extract<AgentEvent, { type: 'tool-result' }>;

/** What the session remembers of a call between its updates: what it does, and who decided it. */
export interface ShownToolCall {
  readonly description?: ToolCallDescription | undefined;
  readonly approval?: Pick<ToolApprovalEvent, 'outcome' | 'warning'> | undefined;
}

/**
 * The ACP kind of a call: what its description says (`read` and `search` only for calls that
 * change nothing: acpx approves those by itself), else `other`. A question is always `other`:
 * it neither reads nor changes anything the editor knows how to show.
 */
function kindOf(event: {
  readonly name: string;
  readonly description?: ToolCallDescription | undefined;
}): ToolKind {
  if (event.name === ASK_USER_QUESTION_TOOL_NAME) return 'other';
  return event.description?.kind ?? 'other';
}

/** A piece of the model's reasoning, as an `agent_thought_chunk`: editors show it as a collapsible thought. */
export function thoughtUpdate(text: string): SessionUpdate {
  return { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text } };
}

/** A piece of the assistant's text, as an `agent_message_chunk`. */
export function textUpdate(text: string): SessionUpdate {
  return { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } };
}

/**
 * A tool call announced, as a `tool_call`: its kind, title, the places it touches (editors
 * follow along), the change it will make (a `diff`, or the command and its folder) and the
 * model's arguments as `rawInput`. A described call is `pending` until it is decided (see
 * `toolApprovalUpdate`); any other (a question) runs at once, `in_progress`.
 */
export function toolCallUpdate(event: ToolCallEvent, toolCallId: string): SessionUpdate {
  const { description } = event;
  const locations = toolCallLocations(description?.locations);
  const content = description === undefined ? [] : changeContent(description);
  const sandbox = description?.command?.sandbox;
  return {
    sessionUpdate: 'tool_call',
    toolCallId,
    title: event.title,
    kind: kindOf(event),
    status: description === undefined ? 'in_progress' : 'pending',
    ...(locations !== undefined && { locations }),
    ...(content.length > 0 && { content }),
    rawInput: event.arguments,
    // Whether the command runs in the sandbox, for a client that shows it its own way.
    ...(sandbox !== undefined && { _meta: { dsh: { sandbox } } }),
  };
}

/**
 * A call allowed to run, as a `tool_call_update` to `in_progress` whose content says who
 * allowed it (the person, or which rule) above its change. A denied call gets no update of its
 * own: its result (`failed`) says who denied it.
 */
export function toolApprovalUpdate(
  event: ToolApprovalEvent,
  toolCallId: string,
  description?: ToolCallDescription,
): SessionUpdate | undefined {
  if (!event.outcome.allowed) return undefined;
  return {
    sessionUpdate: 'tool_call_update',
    toolCallId,
    status: 'in_progress',
    content: [
      textContent(decisionNote(event.outcome, event.warning)),
      ...(description === undefined ? [] : changeContent(description)),
    ],
  };
}

/** A command's output, fenced so that it shows as it was printed. */
function outputContent(output: string, kind: ToolKind): ToolCallContent {
  if (kind !== 'execute') return textContent(output);
  const longest = Math.max(0, ...(output.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return textContent(`${fence}\n${output}\n${fence}`);
}

/**
 * The end of a tool call, as a `tool_call_update`: `completed` or `failed`. Its content (which
 * replaces what the call showed so far) is who decided it, its change (the diff it made, the
 * command that ran) and its output (a command's output, a question's answer, or the error and
 * its code); a denied call shows only who denied it and what it would have done. `rawOutput`
 * carries metadata, not the output again: the chosen option of an answer, a command's exit
 * status or signal, the error, and who decided (`decidedBy`).
 */
export function toolResultUpdate(
  event: ToolResultEvent,
  toolCallId: string,
  shown: ShownToolCall = {},
): SessionUpdate {
  const { result } = event;
  const { description, approval } = shown;
  const kind = kindOf({ name: event.name, description });
  const content: ToolCallContent[] = [];
  if (approval !== undefined)
    content.push(textContent(decisionNote(approval.outcome, approval.warning)));
  const decidedBy = approval === undefined ? {} : { decidedBy: approval.outcome.decidedBy };
  if (result.ok) {
    const option = result.answer?.option;
    const exit = result.details?.exit;
    content.push(
      ...changeContent({
        edit: result.details?.edit ?? description?.edit,
        command: description?.command,
      }),
      outputContent(result.output, kind),
    );
    const rawOutput = {
      ...(option !== undefined && { option: { label: option.label } }),
      ...(exit !== undefined && { exit: { code: exit.code, signal: exit.signal } }),
      ...decidedBy,
    };
    return {
      sessionUpdate: 'tool_call_update',
      toolCallId,
      status: 'completed',
      content,
      ...(Object.keys(rawOutput).length > 0 && { rawOutput }),
    };
  }
  const { error } = result;
  if (description !== undefined) content.push(...changeContent(description));
  // A denial is said by the decision line; its message is written for the model.
  if (approval === undefined || approval.outcome.allowed) {
    content.push(textContent(`${error.message} (${error.code})`));
  }
  return {
    sessionUpdate: 'tool_call_update',
    toolCallId,
    status: 'failed',
    content,
    rawOutput: {
      error: { name: error.name, code: error.code, message: error.message },
      ...decidedBy,
    },
  };
}

/**
 * A retry of the model request, as a `notice` for the person: "Retrying in 2 s, attempt 2 of
 * 3" with what failed as its description. Sent only to clients that advertise
 * `session.notices`: notices are live and not part of the conversation.
 */
export function retryNotice(event: RetryEvent): SessionUpdate {
  const { delayMs } = event;
  const when = delayMs === 0 ? 'Retrying now' : `Retrying in ${formatDuration(delayMs)}`;
  return {
    sessionUpdate: 'notice',
    severity: 'warning',
    title: `${when}, attempt ${event.attempt} of ${event.attempts}`,
    description: event.error.message,
  };
}
