import type { ModelToolCall } from '../models/model.js';
import type { AgentEvent } from './agent-event.js';
import type { AgentTool } from './agent-tool.js';
import { createAskUserQuestionAgentTool } from './ask-user-question-agent-tool.js';
import type { ConversationEntry } from './conversation-entry.js';
import { prepareToolCall } from './tool-call-runner.js';

/** A conversation told again: each turn's prompt, then the events the turn streamed. */
export type ReplayEvent = { readonly type: 'prompt'; readonly text: string } | AgentEvent;

/** Options of `replayConversation`. */
export interface ReplayOptions {
  /** The agent's own tools beyond `ask_user_question`, for the titles of their calls. */
  readonly tools?: readonly AgentTool[];
}

/**
 * The events a UI shows for a conversation that already happened (a restored session), in
 * the order a live turn streams them: reasoning and text as one piece each, and each tool call
 * announced right before its result, titled as the agent titles it live.
 */
export function* replayConversation(
  entries: readonly ConversationEntry[],
  options: ReplayOptions = {},
): Generator<ReplayEvent, void, undefined> {
  const ask = createAskUserQuestionAgentTool();
  const tools = new Map<string, AgentTool>([[ask.name, ask]]);
  for (const tool of options.tools ?? []) if (!tools.has(tool.name)) tools.set(tool.name, tool);
  let calls: readonly ModelToolCall[] = [];
  let next = 0;
  let approval: Extract<ConversationEntry, { type: 'approval' }> | undefined;
  for (const entry of entries) {
    switch (entry.type) {
      case 'prompt':
        yield { type: 'prompt', text: entry.text };
        break;
      case 'assistant':
        if (entry.reasoning !== undefined && entry.reasoning.text !== '') {
          yield { type: 'reasoning', text: entry.reasoning.text };
        }
        if (entry.text !== '') yield { type: 'text', text: entry.text };
        calls = entry.toolCalls ?? [];
        next = 0;
        break;
      case 'approval':
        approval = entry;
        break;
      case 'tool-result': {
        const call = calls[next++];
        const decided = approval?.toolCallId === call?.id ? approval : undefined;
        approval = undefined;
        if (call === undefined) break;
        const { args, title } = prepareToolCall(call, tools);
        const description = decided?.description;
        yield {
          type: 'tool-call',
          id: call.id,
          name: call.name,
          title: description?.title ?? title,
          arguments: args,
          ...(description !== undefined && { description }),
        };
        if (decided !== undefined) {
          yield { type: 'tool-approval', id: call.id, name: call.name, outcome: decided.outcome };
        }
        yield { type: 'tool-result', id: call.id, name: call.name, result: entry.result };
        break;
      }
      case 'turn-end':
        yield entry.reason === 'step-limit' || entry.reason === 'error'
          ? { type: 'turn-end', reason: entry.reason, error: entry.error }
          : { type: 'turn-end', reason: entry.reason };
        break;
    }
  }
}
