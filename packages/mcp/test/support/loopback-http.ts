import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/server';

/** A loopback Streamable HTTP server on 127.0.0.1 serving both eras (as the SDK's example does). */
export interface LoopbackHttp extends AsyncDisposable {
  /** The MCP endpoint. */
  readonly url: string;
  /** `http://127.0.0.1:<port>`, for other addresses of the same server. */
  readonly origin: string;
  close(): Promise<void>;
}

/** What a test may add to the loopback server (see `fixtures/loopback-http.mjs`). */
export interface LoopbackHttpOptions {
  /** Sees every request (headers, parsed JSON body) before it is served. */
  readonly onRequest?: (req: IncomingMessage, body: unknown) => void;
  /** Serves a request itself when it returns true. */
  readonly route?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** The SSE `retry` told to a 2025 client; turns on resumability. */
  readonly retryInterval?: number;
  /** Registers more tools on each server built (one per 2026-07-28 request, one per 2025 session). */
  readonly tools?: (server: McpServer, era: 'legacy' | 'modern') => void;
  /** Changes each chunk the server writes; must keep its length in bytes. */
  readonly rewrite?: (text: string) => string;
}

export async function startLoopbackHttp(options: LoopbackHttpOptions = {}): Promise<LoopbackHttp> {
  // @ts-expect-error: the fixture is plain JavaScript
  const fixture = await import('../fixtures/loopback-http.mjs');
  return (fixture.startLoopbackHttp as (options: LoopbackHttpOptions) => Promise<LoopbackHttp>)(
    options,
  );
}
