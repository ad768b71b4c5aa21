import { PassThrough, Writable } from 'node:stream';
import { createScriptedModel, DEMO_SCRIPT } from 'dsh-agent';
import { describe, expect, it, vi } from 'vitest';
import { acpStdioStream } from '../../src/index.js';
import { serveAcpAgent } from '../../src/server.js';
import { messageHead } from '../../src/stdio/message-head.js';
import { openSession, type RawWire, rawWire } from '../support/raw-wire.js';

const demo = () => ({ model: createScriptedModel(DEMO_SCRIPT, { name: 'demo' }) });
const LIMIT = 4_096;

const isFormRequest = (message: Record<string, unknown>) => message.method === 'elicitation/create';

/** The next form the server sends that is not in `seen`; adds it to `seen`. */
async function nextForm(wire: RawWire, seen: Set<unknown>) {
  const form = await wire.waitFor((message) => isFormRequest(message) && !seen.has(message.id));
  seen.add(form.id);
  return form;
}

/** Declines every form of a demo turn, from the `declined`-th on, until the turn has answered. */
async function declineTheRest(wire: RawWire, seen: Set<unknown>, declined: number) {
  for (let i = declined; i < 4; i++) {
    const form = await nextForm(wire, seen);
    wire.send({ id: form.id, result: { action: 'decline' } });
  }
}

const promptLine = (id: string, sessionId: string, text: string) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'session/prompt',
    params: { sessionId, prompt: [{ type: 'text', text }] },
  });

const TOO_LARGE = {
  code: -32600,
  message: `Invalid request: the message is longer than ${LIMIT} bytes, the most this agent reads`,
  data: { code: 'MESSAGE_TOO_LARGE', maxMessageBytes: LIMIT },
};

describe('a message over the size limit', () => {
  it('is refused on its own: its sender gets an error, and the other sessions keep working', async () => {
    const wire = rawWire(demo(), { maxMessageBytes: LIMIT });
    const sessionId = await openSession(wire);
    const other = await openSession(wire, 'other');
    // A turn of another session is waiting for its first answer.
    wire.write(`${promptLine('turn', other, 'Start.')}\n`);
    const seen = new Set<unknown>();
    const form = await nextForm(wire, seen);

    // Written in pieces, as a pipe delivers it.
    const line = promptLine('big', sessionId, 'x'.repeat(LIMIT * 50));
    for (let at = 0; at < line.length; at += 1_000) wire.write(line.slice(at, at + 1_000));
    wire.write('\n');
    expect(await wire.response('big')).toEqual({ jsonrpc: '2.0', id: 'big', error: TOO_LARGE });
    expect(wire.log).toContainEqual(
      `refused request "big": ${line.length} bytes, over the ${LIMIT}-byte limit`,
    );

    // The waiting turn goes on, and the session that sent too much can still be used.
    wire.send({ id: form.id, result: { action: 'decline' } });
    await declineTheRest(wire, seen, 1);
    expect(await wire.response('turn')).toMatchObject({ result: { stopReason: 'end_turn' } });
    wire.write(`${promptLine('small', sessionId, 'Start.')}\n`);
    await declineTheRest(wire, seen, 0);
    expect(await wire.response('small')).toMatchObject({ result: { stopReason: 'end_turn' } });
    await wire.end();
  });

  it('whose id cannot be read from its start gets the error with a null id', async () => {
    const wire = rawWire(demo(), { maxMessageBytes: LIMIT });
    wire.write(
      `{"jsonrpc":"2.0","method":"session/prompt","params":{"text":"${'x'.repeat(LIMIT)}"},"id":9}\n`,
    );
    wire.write(`${'y'.repeat(LIMIT * 3)}\n`);
    // Lines are answered in order: once a later request is answered, both refusals are out.
    await openSession(wire);
    expect(wire.received.filter((message) => message.id === null)).toEqual([
      { jsonrpc: '2.0', id: null, error: TOO_LARGE },
      { jsonrpc: '2.0', id: null, error: TOO_LARGE },
    ]);
    expect(
      wire.log.filter((line) => line.startsWith('refused a message whose id cannot be read')),
    ).toHaveLength(2);
    await wire.end();
  });

  it('that answers a question of the agent fails that question, instead of leaving it waiting', async () => {
    const wire = rawWire(demo(), { maxMessageBytes: LIMIT });
    const sessionId = await openSession(wire);
    wire.write(`${promptLine('turn', sessionId, 'Start.')}\n`);
    const seen = new Set<unknown>();
    const form = await nextForm(wire, seen);
    wire.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: form.id, result: { action: 'accept', content: { choice: 'x'.repeat(LIMIT * 2) } } })}\n`,
    );
    const failed = await wire.waitFor(
      (message) =>
        message.method === 'session/update' &&
        (message.params as { update: { status?: string } }).update.status === 'failed',
    );
    expect(failed).toMatchObject({
      params: { update: { toolCallId: 'language', rawOutput: { error: { code: 'ASK_FAILED' } } } },
    });
    expect(wire.log).toContainEqual(expect.stringMatching(/^refused a response to request \d+: /));
    await declineTheRest(wire, seen, 1);
    expect(await wire.response('turn')).toMatchObject({ result: { stopReason: 'end_turn' } });
    await wire.end();
  });
});

describe('messageHead', () => {
  it.each([
    ['{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"x":"', { kind: 'call', id: 7 }],
    ['{"jsonrpc":"2.0","method":"a","id":"s-1","params":[1,{"a":"}"}', { kind: 'call', id: 's-1' }],
    ['{"id":3,"result":{"content":"', { kind: 'response', id: 3 }],
    ['{"jsonrpc":"2.0","id":null,"method":"x"', { kind: 'call', id: null }],
    ['{"jsonrpc":"2.0","method":"x","params":{"text":"', { kind: 'call' }],
    ['{"jsonrpc":"2.0","id":12', { kind: 'unknown' }],
    ['{"jsonrpc":"2.0","id":{"a":1},"method":"x"', { kind: 'call' }],
    ['{"params":{"deep":[[[{"id":5}]]]},"id":"top","method":"m"}', { kind: 'call', id: 'top' }],
    ['[{"id":1}', { kind: 'unknown' }],
    ['garbage', { kind: 'unknown' }],
    ['{"id":"a\\"b","method":"m"', { kind: 'call', id: 'a"b' }],
  ])('reads %j', (text, head) => {
    expect(messageHead(text)).toEqual(head);
  });
});

describe('the output side', () => {
  it('sends the messages of a turn in order, gathered into few system writes', async () => {
    const input = new PassThrough();
    const chunks: string[] = [];
    let writes = 0;
    const output = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        writes++;
        chunks.push(chunk.toString());
        callback();
      },
      writev(batch, callback) {
        writes++;
        for (const { chunk } of batch) chunks.push(String(chunk));
        callback();
      },
    });
    const server = serveAcpAgent(acpStdioStream({ input, output }), {
      model: createScriptedModel({ steps: [{ text: 'one two three four five six seven eight' }] }),
    });
    const send = (message: object) =>
      input.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    send({ id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } });
    send({ id: 2, method: 'session/new', params: { cwd: '/', mcpServers: [] } });
    await vi.waitFor(() => expect(chunks.join('')).toContain('"id":2'));
    const sessionId = (
      JSON.parse(chunks.join('').trim().split('\n').at(-1) ?? '{}') as {
        result: { sessionId: string };
      }
    ).result.sessionId;
    const before = writes;
    send({
      id: 3,
      method: 'session/prompt',
      params: { sessionId, prompt: [{ type: 'text', text: 'Go.' }] },
    });
    await vi.waitFor(() => expect(chunks.join('')).toContain('"id":3'));
    const lines = chunks
      .join('')
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            id?: number;
            params?: { update?: { content?: { text?: string } } };
          },
      );
    const text = lines.flatMap((line) => line.params?.update?.content?.text ?? []).join('');
    expect(text).toBe('one two three four five six seven eight');
    expect(lines.at(-1)).toMatchObject({ id: 3, result: { stopReason: 'end_turn' } });
    // Nine messages (eight updates and the response) in fewer writes than messages.
    expect(writes - before).toBeLessThan(9);
    input.end();
    await server.done;
  });

  it('closes the connection when the output fails (the editor stopped reading), without crashing', async () => {
    const input = new PassThrough();
    let failed = 0;
    const output = new Writable({
      write(_chunk, _encoding, callback) {
        failed++;
        callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    const server = serveAcpAgent(acpStdioStream({ input, output }), {
      model: createScriptedModel({ steps: [{ text: 'Hello.' }] }),
    });
    input.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } })}\n`,
    );
    await server.done;
    expect(failed).toBeGreaterThan(0);
  });
});
