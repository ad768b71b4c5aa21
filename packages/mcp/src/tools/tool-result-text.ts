import type { CallToolResult } from '@modelcontextprotocol/client';

/** The most text of a result handed to the model; the rest is cut, saying so. */
export const RESULT_TEXT_LIMIT = 100_000;

function block(content: CallToolResult['content'][number]): string {
  switch (content.type) {
    case 'text':
      return content.text;
    case 'image':
    case 'audio':
      return `[${content.type} ${content.mimeType}]`;
    case 'resource_link':
      return `[resource ${content.uri}]`;
    case 'resource': {
      const resource = content.resource as { uri: string; text?: unknown };
      return typeof resource.text === 'string' ? resource.text : `[resource ${resource.uri}]`;
    }
    default:
      return `[${(content as { type: string }).type}]`;
  }
}

/** A tool result as text for the model: its text blocks, other blocks named, or its structured content. */
export function toolResultText(result: CallToolResult): string {
  const parts = (result.content ?? []).map(block);
  let text = parts.join('\n');
  if (text === '' && result.structuredContent !== undefined)
    text = JSON.stringify(result.structuredContent);
  if (text === '')
    text = result.isError === true ? 'The tool failed and said nothing.' : '(no output)';
  return text.length <= RESULT_TEXT_LIMIT
    ? text
    : `${text.slice(0, RESULT_TEXT_LIMIT)}\n[cut: ${text.length - RESULT_TEXT_LIMIT} more characters]`;
}
