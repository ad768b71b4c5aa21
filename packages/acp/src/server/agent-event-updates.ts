import type { SessionUpdate, ToolKind } from '@agentclientprotocol/sdk';
import type { AgentEvent } from 'dsh-agent';

type ToolCallEvent = Extract<AgentEvent, { type: 'tool-call' }>;
type ToolResultEvent = Extract<AgentEvent, { type: 'tool-result' }>;
type RetryEvent = Extract<AgentEvent, { type: 'retry' }>;

/**
 * The ACP tool kind of every call: the agent's tools (a question, or tools given by the
 * program) neither read, edit nor run anything the editor knows how to show specially.
 */
const TOOL_KIND: ToolKind = 'other';

/** A piece of the model's reasoning, as an `agent_thought_chunk`: editors show it as a collapsible thought. */
export function thoughtUpdate(text: string): SessionUpdate {
  return { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text } };
}

/** A piece of the assistant's text, as an `agent_message_chunk`. */
export function textUpdate(text: string): SessionUpdate {
  return { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } };
}

/**
 * A tool call about to run, as a `tool_call` in progress: its title is the question for
 * `ask_user_question`, and its raw input the model's arguments.
 */
export function toolCallUpdate(event: ToolCallEvent, toolCallId: string): SessionUpdate {
  return {
    sessionUpdate: 'tool_call',
    toolCallId,
    title: event.title,
    kind: TOOL_KIND,
    status: 'in_progress',
    rawInput: event.arguments,
  };
}

/**
 * The end of a tool call, as a `tool_call_update`: `completed` with its output (for a
 * question, the answer) as text content, or `failed` with the error's message and code.
 * The output is sent once, as content: `rawOutput` carries only metadata (for an answer that
 * is a chosen option, that option's label), so an update stays about as long as its output.
 */
export function toolResultUpdate(event: ToolResultEvent, toolCallId: string): SessionUpdate {
  const { result } = event;
  if (result.ok) {
    const option = result.answer?.option;
    return {
      sessionUpdate: 'tool_call_update',
      toolCallId,
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: result.output } }],
      ...(option !== undefined && { rawOutput: { option: { label: option.label } } }),
    };
  }
  const { error } = result;
  return {
    sessionUpdate: 'tool_call_update',
    toolCallId,
    status: 'failed',
    content: [
      { type: 'content', content: { type: 'text', text: `${error.message} (${error.code})` } },
    ],
    rawOutput: { error: { name: error.name, code: error.code, message: error.message } },
  };
}

/**
 * A retry of the model request, as a `notice` for the person: "Retrying in 2 s, attempt 2 of
 * 3" with what failed as its description. Sent only to clients that advertise
 * `session.notices`: notices are live and not part of the conversation.
 */
export function retryNotice(event: RetryEvent): SessionUpdate {
  const { delayMs } = event;
  const when =
    delayMs === 0
      ? 'Retrying now'
      : `Retrying in ${delayMs < 1_000 ? `${delayMs} ms` : `${Math.round(delayMs / 1_000)} s`}`;
  return {
    sessionUpdate: 'notice',
    severity: 'warning',
    title: `${when}, attempt ${event.attempt} of ${event.attempts}`,
    description: event.error.message,
  };
}
