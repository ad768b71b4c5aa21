import { createScriptedModel, DEMO_SCRIPT } from 'dsh-agent';
import { describe, expect, it } from 'vitest';
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
