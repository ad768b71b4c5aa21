import { createScriptedModel, DEMO_SCRIPT } from 'dsh-agent';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openSession, rawWire } from '../support/raw-wire.js';

const LIMIT = 2_048;
/** Stands for the id of a session opened before the lines are sent. */
const OPEN_SESSION = '<open session>';

const METHODS = [
  'initialize',
  'session/new',
  'session/prompt',
  'session/cancel',
  'session/close',
  'session/load',
  'elicitation/create',
  '$/cancel_request',
  'no/such_method',
];

const id = fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null), fc.anything());
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('\u001b[2J', '\u2028', '\ud800', '</context>', 'x'.repeat(LIMIT * 2)),
);
const params = fc.oneof(
  fc.anything(),
  fc.record(
    {
      protocolVersion: fc.oneof(fc.integer(), fc.anything()),
      clientCapabilities: fc.oneof(fc.constant({ elicitation: { form: {} } }), fc.anything()),
      clientInfo: fc.record({ name: text, version: text }),
      sessionId: fc.oneof(fc.constant(OPEN_SESSION), text),
      cwd: fc.oneof(fc.constant('/'), text),
      mcpServers: fc.oneof(fc.constant([]), fc.anything()),
      prompt: fc.oneof(
        fc.array(fc.record({ type: fc.constantFrom('text', 'image', 'resource'), text })),
        fc.anything(),
      ),
      requestId: id,
    },
    { requiredKeys: [] },
  ),
);
const message = fc.oneof(
  fc.record(
    { jsonrpc: fc.constantFrom('2.0', '1.0'), id, method: fc.constantFrom(...METHODS), params },
    { requiredKeys: ['jsonrpc', 'method'] },
  ),
  fc.record(
    { jsonrpc: fc.constant('2.0'), id, result: fc.anything(), error: fc.anything() },
    { requiredKeys: [] },
  ),
);
/** One line (or several, when the text holds line breaks), ending with a newline. */
const line = fc.oneof(
  message.map((value) => JSON.stringify(value)),
  fc.json(),
  text,
  fc.constantFrom(
    '',
    '   ',
    '[]',
    '[{"jsonrpc":"2.0","id":1,"method":"initialize"}]',
    '{"id":',
    '42',
  ),
  // Over the limit, with and without a readable id.
  fc
    .tuple(id, fc.integer({ min: 1, max: 4 }))
    .map(
      ([messageId, times]) =>
        `{"jsonrpc":"2.0","id":${JSON.stringify(messageId) ?? 1},"method":"session/prompt","params":{"text":"${'x'.repeat(LIMIT * times)}"}}`,
    ),
  fc.integer({ min: 1, max: 4 }).map((times) => 'y'.repeat(LIMIT * times)),
);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('fuzz: random and hostile lines to the server', () => {
  it('the server keeps answering a well-formed request after any of them', async () => {
    // The SDK logs what it cannot route (responses to unknown requests) to the console.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 12 }), async (lines) => {
        const wire = rawWire(
          { model: createScriptedModel(DEMO_SCRIPT, { name: 'demo' }) },
          { maxMessageBytes: LIMIT },
        );
        const sessionId = await openSession(wire);
        for (const written of lines) wire.write(`${written.replaceAll(OPEN_SESSION, sessionId)}\n`);
        wire.write(
          '{"jsonrpc":"2.0","id":"probe","method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}\n',
        );
        const answer = await wire.response('probe');
        expect(answer.jsonrpc).toBe('2.0');
        expect('result' in answer || 'error' in answer).toBe(true);
        await wire.end();
      }),
      { numRuns: 150, interruptAfterTimeLimit: 3_000 },
    );
  });
});
