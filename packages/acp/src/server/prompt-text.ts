import { type ContentBlock, RequestError } from '@agentclientprotocol/sdk';

/** Text inside an element: it can neither close the element nor open another. */
function escapeText(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function quoteAttribute(value: string): string {
  return escapeText(value).replaceAll('"', '&quot;');
}

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'resource_link': {
      // The model cannot open the link itself: it gets the name and where it points.
      const name = block.title ?? block.name;
      return `[${name}](${block.uri})`;
    }
    case 'resource': {
      const { resource } = block;
      const uri = quoteAttribute(resource.uri);
      if ('text' in resource && typeof resource.text === 'string') {
        return `<context uri="${uri}">\n${escapeText(resource.text)}\n</context>`;
      }
      // Binary context cannot reach a text model; say that it was there instead of dropping it.
      const type = resource.mimeType ? ` type="${quoteAttribute(resource.mimeType)}"` : '';
      return `<context uri="${uri}"${type}>(binary content, not included)</context>`;
    }
    default:
      throw RequestError.invalidParams(
        { contentType: block.type },
        `this agent takes text prompts only, and does not advertise ${block.type} content (promptCapabilities.${block.type} is false)`,
      );
  }
}

/**
 * The prompt of a `session/prompt` request as the text the model receives: text blocks as
 * they are, resource links as Markdown links, embedded text resources inside a
 * `<context uri="…">` element, escaped (`&`, `<`, `>`) so that no file can close it or open
 * another (binary ones named only). Throws an invalid-params
 * `RequestError` for image or audio content, which this agent does not advertise, and for a
 * prompt with no text at all.
 */
export function promptText(prompt: readonly ContentBlock[]): string {
  // A loop, not `map` then `join`: the array `map` made came in another shape once the agent
  // was warm, and deoptimised the prompt handler it is inlined into.
  let text = '';
  for (let index = 0; index < prompt.length; index++) {
    if (index > 0) text += '\n\n';
    text += blockText(prompt[index] as ContentBlock);
  }
  if (text.trim() === '') {
    throw RequestError.invalidParams({ prompt: 'empty' }, 'the prompt has no text');
  }
  return text;
}
