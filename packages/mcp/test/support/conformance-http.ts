import type { IncomingMessage } from 'node:http';
import {
  fromJsonSchema,
  type JsonSchemaValidatorResult,
  type jsonSchemaValidator,
} from '@modelcontextprotocol/server';
import { createUserInteraction } from 'dsh-user-interaction';
import { createScriptedProvider, type ScriptedAnswer } from 'dsh-user-interaction/testing';
import { connectMcpServer, type McpServerConnection } from '../../src/index.js';
import { loopToolCaller } from './loopback.js';
import { type LoopbackHttpOptions, startLoopbackHttp } from './loopback-http.js';

// What the conformance tests over Streamable HTTP share: a loopback server that records each
// request, and a dsh connection to it whose tools are called as the agent calls them.

const open: { close(): Promise<void> }[] = [];

/** Closes every server and connection a test opened (each test file's `afterEach`). */
export async function closeOpened(): Promise<void> {
  await Promise.all(open.splice(0).map((item) => item.close()));
}

export interface Seen {
  readonly method: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: { method?: string; id?: unknown; params?: Record<string, unknown> } | undefined;
  readonly at: number;
}

export async function serve(options: LoopbackHttpOptions = {}) {
  const seen: Seen[] = [];
  const http = await startLoopbackHttp({
    ...options,
    onRequest: (req, body) => {
      seen.push({
        method: req.method ?? '',
        headers: req.headers,
        body: body as Seen['body'],
        at: Date.now(),
      });
    },
  });
  open.push(http);
  return { http, seen };
}

export async function connect(
  url: string,
  era: 'auto' | 'legacy',
  answers: readonly ScriptedAnswer[] = [],
) {
  const interaction = createUserInteraction();
  interaction.registerProvider(createScriptedProvider({ answers }));
  const connection: McpServerConnection = await connectMcpServer(
    { name: 'loop', transport: 'http', url, headers: {} },
    { interaction, era, elicitation: { review: false } },
  );
  open.push(connection);
  return { connection, call: loopToolCaller(connection) };
}

export const text = (value: unknown) => ({
  content: [{ type: 'text' as const, text: JSON.stringify(value) }],
});
// The server's own validator cannot compile a schema with a network $ref (the scenario's server
// does not validate either): it takes any arguments, so the schema reaches the client as written.
export const ACCEPT_ALL: jsonSchemaValidator = {
  getValidator<T>() {
    return (data: unknown) =>
      ({ valid: true, data, errorMessage: undefined }) as JsonSchemaValidatorResult<T>;
  },
};
/** A tool input schema as JSON (with keywords such as `x-mcp-header` the SDK's type does not name). */
export const jsonSchema = (schema: object, validator?: jsonSchemaValidator) =>
  fromJsonSchema(schema as Parameters<typeof fromJsonSchema>[0], validator);
export const YES: ScriptedAnswer = { answers: { f0: { label: 'Yes' } } };
