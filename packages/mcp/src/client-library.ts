import type * as Library from '@modelcontextprotocol/client';
import type * as StdioLibrary from '@modelcontextprotocol/client/stdio';

// The MCP client library, loaded when a server is first connected or a tool first called, not
// when dsh-mcp is imported: an agent with no MCP server (an ACP session without `mcpServers`)
// never holds it, about 5 MiB of heap (bench/acp-sessions.bench.ts, peak memory).

/** `@modelcontextprotocol/client`. */
export type ClientLibrary = typeof Library;

let library: ClientLibrary | undefined;

/** `@modelcontextprotocol/client`, imported on the first call. */
export async function clientLibrary(): Promise<ClientLibrary> {
  library ??= await import('@modelcontextprotocol/client');
  return library;
}

/** `@modelcontextprotocol/client/stdio`, imported when a stdio server is first started. */
export function stdioClientLibrary(): Promise<typeof StdioLibrary> {
  return import('@modelcontextprotocol/client/stdio');
}
