import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** A server of the test kits on 127.0.0.1, on a port of its own. */
export interface LoopbackServer {
  readonly port: number;
  /** Ends every open connection and stops listening. */
  close(): Promise<void>;
}

/** Serves `handler` on 127.0.0.1 (port 0): the one HTTP plumbing of the stand-in servers. */
export async function listenOnLoopback(handler?: RequestListener): Promise<LoopbackServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    async close(): Promise<void> {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The whole body of a request, as text. */
export async function readRequestBody(request: IncomingMessage): Promise<string> {
  let text = '';
  request.setEncoding('utf8');
  for await (const part of request) text += part;
  return text;
}

/** Answers with a plain body (an error, a non-streamed answer). */
export function sendBody(
  response: ServerResponse,
  status: number,
  body: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(body);
}

/** An event stream as chat-completions servers send it: `data:` lines, then `data: [DONE]`. */
export interface EventStream {
  /** One event: an object as its JSON, a string as the raw `data:` payload. */
  send(event: object | string): void;
  /** Ends the stream with `data: [DONE]`. */
  done(): void;
}

/** Starts an event stream on `response` with `status` (default 200). */
export function startEventStream(
  response: ServerResponse,
  status = 200,
  headers: Readonly<Record<string, string>> = {},
): EventStream {
  response.writeHead(status, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    ...headers,
  });
  return {
    send(event) {
      response.write(`data: ${typeof event === 'string' ? event : JSON.stringify(event)}\n\n`);
    },
    done() {
      response.end('data: [DONE]\n\n');
    },
  };
}
