import type { OpenAI } from 'openai';
import type { ModelMessage, ModelToolSchema } from './model.js';

type MessageParam = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type ToolParam = OpenAI.Chat.Completions.ChatCompletionTool;

/** Where reasoning goes back when a message kept no field name (a conversation restored by hand). */
const DEFAULT_REASONING_FIELD = 'reasoning_content';

/**
 * The conversation in the chat-completions shape. An assistant message that made tool calls
 * carries its reasoning back in the field it came in, exactly as received: DeepSeek's thinking
 * mode refuses the request otherwise. Reasoning of other messages is left out (servers ignore
 * it), and a message the server sent no reasoning with gets no such field.
 */
export function toOpenAIMessages(messages: readonly ModelMessage[]): MessageParam[] {
  return messages.map((message): MessageParam => {
    if (message.role === 'tool') {
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    }
    if (message.role !== 'assistant') return { role: message.role, content: message.content };
    const calls = message.toolCalls ?? [];
    if (calls.length === 0) return { role: 'assistant', content: message.content };
    const { reasoning } = message;
    return {
      role: 'assistant',
      // The protocol wants null, not an empty string, next to tool calls.
      content: message.content === '' ? null : message.content,
      tool_calls: calls.map((call) => ({
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: call.arguments },
      })),
      ...(reasoning !== undefined && {
        [reasoning.field ?? DEFAULT_REASONING_FIELD]: reasoning.text,
      }),
    };
  });
}

/** The tools in the chat-completions shape. */
export function toOpenAITools(tools: readonly ModelToolSchema[]): ToolParam[] {
  return tools.map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters as Record<string, unknown>,
    },
  }));
}
