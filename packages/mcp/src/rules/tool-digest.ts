import { createHash } from 'node:crypto';

/** What of an MCP tool an approval covers: the words the model reads, its arguments, its hints. */
export interface DigestedTool {
  readonly description?: string | undefined;
  readonly inputSchema?: unknown;
  readonly annotations?: unknown;
}

/** JSON with every object's keys sorted, so that the same tool always gives the same text. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * A short digest (16 hex digits of SHA-256) of a tool's description, input schema and
 * annotations: an "always" rule pins it, so a tool its server changes afterwards asks again.
 */
export function toolDigest(tool: DigestedTool): string {
  const text = canonical({
    description: tool.description ?? '',
    inputSchema: tool.inputSchema ?? null,
    annotations: tool.annotations ?? null,
  });
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}
