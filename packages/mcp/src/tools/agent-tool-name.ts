import { createHash } from 'node:crypto';

/** The longest tool name model APIs accept. */
export const TOOL_NAME_LIMIT = 64;

function safe(part: string): string {
  const cleaned = part.replace(/[^A-Za-z0-9_-]/g, '_').replace(/_{2,}/g, '_');
  return cleaned === '' ? '_' : cleaned;
}

/**
 * The name the model calls an MCP tool by: `mcp__<server>__<tool>` (Claude's spelling), each part
 * reduced to letters, digits, `_` and `-`. A name past 64 characters, or one whose parts had to
 * change, ends in a short hash of the real names, so two tools never share a name.
 */
export function agentToolName(serverName: string, toolName: string): string {
  const server = safe(serverName);
  const tool = safe(toolName);
  const plain = `mcp__${server}__${tool}`;
  if (plain.length <= TOOL_NAME_LIMIT && server === serverName && tool === toolName) return plain;
  const hash = createHash('sha256').update(`${serverName}\0${toolName}`).digest('hex').slice(0, 8);
  const room = TOOL_NAME_LIMIT - hash.length - 1;
  return `${plain.slice(0, room)}_${hash}`;
}
