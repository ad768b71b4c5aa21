import { PassThrough } from 'node:stream';
import { deferred } from 'dsh-agent/testing';
import { acpStdioStream } from '../../src/index.js';
import {
  type AcpAgentServer,
  type AcpAgentServerOptions,
  serveAcpAgent,
} from '../../src/server.js';

type Message = Record<string, unknown>;

/**
 * The server on in-memory byte streams, driven line by line: what a client that writes its own
 * JSON-RPC (reused ids, oversized lines, garbage) sees. The stream is `acpStdioStream`, as the bin
 * runs it on stdin and stdout.
 */
export interface RawWire {
  readonly server: AcpAgentServer;
  /** Every message the server wrote, parsed. */
  readonly received: Message[];
  /** Lines the server logged. */
  readonly log: string[];
  /** Writes raw text (add the line ending yourself) to the server's input. */
  write(text: string): void;
  /** Writes one message as a line. */
  send(message: Message): void;
  /** The first message (already received or still to come) that matches. */
  waitFor(match: (message: Message) => boolean): Promise<Message>;
  /** The response to the request of this id. */
  response(id: unknown): Promise<Message>;
  /** Ends the input, as an editor that quits does, and waits until the server is done. */
  end(): Promise<void>;
}

export function rawWire(
  options: AcpAgentServerOptions,
  streamOptions: { maxMessageBytes?: number } = {},
): RawWire {
  const input = new PassThrough();
  const output = new PassThrough();
  const log: string[] = [];
  const received: Message[] = [];
  const watchers: { match: (message: Message) => boolean; resolve: (message: Message) => void }[] =
    [];
  let pending = '';
  output.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const message = JSON.parse(line) as Message;
      received.push(message);
      for (const watcher of [...watchers]) {
        if (watcher.match(message)) {
          watchers.splice(watchers.indexOf(watcher), 1);
          watcher.resolve(message);
        }
      }
    }
  });
  const server = serveAcpAgent(
    acpStdioStream({ input, output, log: (line) => log.push(line), ...streamOptions }),
    { log: (line) => log.push(line), ...options },
  );
  const waitFor = (match: (message: Message) => boolean): Promise<Message> => {
    const seen = received.find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    const { promise, resolve } = deferred<Message>();
    watchers.push({ match, resolve });
    return promise;
  };
  return {
    server,
    received,
    log,
    write: (text) => void input.write(text),
    send: (message) => void input.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`),
    waitFor,
    response: (id) => waitFor((message) => message.id === id && !('method' in message)),
    async end() {
      input.end();
      await server.done;
    },
  };
}

/** `initialize` (with forms) and `session/new`, over the raw wire; resolves with the session id. */
export async function openSession(wire: RawWire, id = 'open'): Promise<string> {
  wire.send({
    id: `${id}-initialize`,
    method: 'initialize',
    params: { protocolVersion: 1, clientCapabilities: { elicitation: { form: {} } } },
  });
  await wire.response(`${id}-initialize`);
  wire.send({ id: `${id}-session`, method: 'session/new', params: { cwd: '/', mcpServers: [] } });
  const created = await wire.response(`${id}-session`);
  return (created.result as { sessionId: string }).sessionId;
}
