import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  NodeStreamableHTTPServerTransport,
  toNodeHandler,
  toWebRequest,
} from '@modelcontextprotocol/node';
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
} from '@modelcontextprotocol/server';
// @ts-expect-error: the fixture is plain JavaScript
import { buildServer } from '../fixtures/loopback-server.mjs';

/** A loopback Streamable HTTP server on 127.0.0.1 serving both eras (as the SDK's example does). */
export interface LoopbackHttp extends AsyncDisposable {
  readonly url: string;
  close(): Promise<void>;
}

export async function startLoopbackHttp(): Promise<LoopbackHttp> {
  const modern = toNodeHandler(createMcpHandler(buildServer, { legacy: 'reject' }));
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  // 2025 clients need a session: `elicitation/create` travels on its stream.
  const legacy = async (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    const id = req.headers['mcp-session-id'] as string | undefined;
    const known = id === undefined ? undefined : sessions.get(id);
    if (known !== undefined) return known.handleRequest(req, res, body);
    if (id !== undefined || !isInitializeRequest(body)) {
      res.writeHead(id === undefined ? 400 : 404).end();
      return;
    }
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await buildServer({ era: 'legacy' }).connect(transport);
    await transport.handleRequest(req, res, body);
  };
  const server = createServer((req, res) => {
    void (async () => {
      // The SDK's Node types want a method that is always set; a server request always has one.
      const like = req as Parameters<typeof toWebRequest>[0] & IncomingMessage;
      const request = await toWebRequest(like);
      const body: unknown =
        req.method === 'POST' ? await request.json().catch(() => undefined) : undefined;
      const old = await isLegacyRequest(request, body);
      await (old ? legacy(req, res, body) : modern(like, res, body));
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = async () => {
    await Promise.all([...sessions.values()].map((transport) => transport.close()));
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { url: `http://127.0.0.1:${port}/mcp`, close, [Symbol.asyncDispose]: close };
}
