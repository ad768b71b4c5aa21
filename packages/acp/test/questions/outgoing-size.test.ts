import { DEFAULT_MAX_MESSAGE_BYTES, type SendRequestOptions } from '@agentclientprotocol/sdk';
import {
  type AskUserQuestionItem,
  type AskUserQuestionsRequest,
  createUserInteraction,
  isUserInteractionError,
  REQUEST_LIMITS,
} from 'dsh-user-interaction';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { type AcpClientConnection, createAcpQuestionProvider } from '../../src/index.js';
import {
  jsonByteLength,
  jsonByteLengthBound,
  MAX_MESSAGE_BYTES,
  requestByteLength,
  requestByteLengthBound,
} from '../../src/stdio/message-size.js';
import { rejectionOf } from '../support/rejection-of.js';

/** A connection that records what would be sent, as the SDK would write it, and never answers. */
function recordingConnection() {
  const lines: number[] = [];
  let id = 0;
  const connection: AcpClientConnection = {
    client: {
      request: ((method: string, params: unknown, _options?: SendRequestOptions) => {
        const line = `${JSON.stringify({ jsonrpc: '2.0', id: id++, method, params })}\n`;
        lines.push(Buffer.byteLength(line, 'utf8'));
        return new Promise(() => {});
      }) as AcpClientConnection['client']['request'],
    },
    signal: new AbortController().signal,
  };
  return { connection, lines };
}

function askAllThrough(connection: AcpClientConnection, request: AskUserQuestionsRequest) {
  const interaction = createUserInteraction();
  interaction.registerProvider(
    createAcpQuestionProvider({
      connection,
      clientCapabilities: { elicitation: { form: {} } },
      scopeFor: () => ({ sessionId: 'session-1', toolCallId: 'call-1' }),
    }),
  );
  return interaction.askAll(request);
}

/** A question at the contract's limits: 10,000 options with long labels. */
function bigQuestion(index: number, labelLength: number): AskUserQuestionItem {
  return {
    id: `q${index}`,
    question: `Question ${index}?`,
    options: Array.from({ length: REQUEST_LIMITS.options }, (_, option) => ({
      label: `${option} ${'é'.repeat(labelLength)}`.slice(0, REQUEST_LIMITS.labelLength),
    })),
  };
}

describe('the size of what the agent sends', () => {
  it('uses the SDK reader limit as its one limit', () => {
    expect(MAX_MESSAGE_BYTES).toBe(DEFAULT_MAX_MESSAGE_BYTES);
  });

  it('counts JSON bytes exactly as JSON.stringify writes them', () => {
    const values: unknown[] = [
      '',
      'plain',
      'é日本👩‍👩‍👧',
      '\u0000\u0001\u001f"\\\n\t\u2028',
      '\ud800 lone \udfff',
      0,
      -1.5e-7,
      1e21,
      Number.NaN,
      true,
      null,
      [],
      {},
      [1, undefined, 'a', null, { b: undefined }],
      { a: undefined, 'k"é': [{ x: '\u0007' }], __proto__x: 1, n: { m: { o: [[], {}] } } },
    ];
    for (const value of values) {
      expect(jsonByteLength(value), JSON.stringify(value)).toBe(
        Buffer.byteLength(JSON.stringify(value), 'utf8'),
      );
    }
    // Past the limit it stops counting, and says only that it is over.
    const large = { items: Array.from({ length: 1_000 }, () => 'x'.repeat(1_000)) };
    const counted = jsonByteLength(large, 10_000);
    expect(counted).toBeGreaterThan(10_000);
    expect(counted).toBeLessThan(20_000);
  });

  it('bounds a message from above (never under its length), so that one under the bound is within the limit', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ maxLength: 40 }), (value, method) => {
        const exact = Buffer.byteLength(JSON.stringify(value), 'utf8');
        expect(jsonByteLengthBound(value)).toBeGreaterThanOrEqual(exact);
        expect(requestByteLengthBound(method, value)).toBeGreaterThanOrEqual(
          requestByteLength(method, value),
        );
      }),
    );
    for (const value of [
      '\ud800 lone \udfff',
      '\u0000\u0001',
      -1.2345678901234567e-308,
      [1, undefined],
    ]) {
      expect(jsonByteLengthBound(value)).toBeGreaterThanOrEqual(
        Buffer.byteLength(JSON.stringify(value), 'utf8'),
      );
    }
    // Past the limit it stops, over it.
    const large = { items: Array.from({ length: 1_000 }, () => 'x'.repeat(1_000)) };
    const bound = jsonByteLengthBound(large, 10_000);
    expect(bound).toBeGreaterThan(10_000);
    expect(bound).toBeLessThan(20_000);
  });

  it('refuses with INVALID_REQUEST, and sends nothing, a form over the 32 MiB an ACP message may be', async () => {
    const { connection, lines } = recordingConnection();
    const request: AskUserQuestionsRequest = {
      questions: Array.from({ length: REQUEST_LIMITS.questions }, (_, index) =>
        bigQuestion(index, REQUEST_LIMITS.labelLength),
      ),
      agent: { id: 'agent-1' },
    };
    const error = await rejectionOf(askAllThrough(connection, request));
    expect(isUserInteractionError(error) && error.code).toBe('INVALID_REQUEST');
    const { message } = error as Error;
    expect(message).toMatch(/would make a form of \d+(\.\d)? MiB, over the 32 MiB limit/);
    expect(message).toMatch(/fewer questions .*fewer options, or shorter labels/);
    const mib = Number(/form of ([\d.]+) MiB/.exec(message)?.[1]);
    expect(mib).toBeGreaterThan(32);
    // Sending it would have ended the connection: nothing went out.
    expect(lines).toEqual([]);
  });

  it('refuses a single question too, and still sends a large form that fits', async () => {
    const { connection, lines } = recordingConnection();
    const ask = (labelLength: number) => {
      const interaction = createUserInteraction();
      interaction.registerProvider(
        createAcpQuestionProvider({
          connection,
          clientCapabilities: { elicitation: { form: {} } },
          scopeFor: () => ({ sessionId: 'session-1' }),
        }),
      );
      const { options } = bigQuestion(0, labelLength);
      return interaction.ask({
        question: 'Which?',
        options: (options ?? []).map((option) => ({
          ...option,
          description: '日'.repeat(REQUEST_LIMITS.descriptionLength),
        })),
        agent: { id: 'agent-1' },
      });
    };
    // About 60 MiB of descriptions: refused.
    expect(await rejectionOf(ask(REQUEST_LIMITS.labelLength))).toMatchObject({
      code: 'INVALID_REQUEST',
      field: 'options',
    });
    expect(lines).toEqual([]);
    const fits = createUserInteraction();
    fits.registerProvider(
      createAcpQuestionProvider({
        connection,
        clientCapabilities: { elicitation: { form: {} } },
        scopeFor: () => ({ sessionId: 'session-1' }),
      }),
    );
    const { options } = bigQuestion(0, 400);
    void fits.ask({ question: 'Which?', options: options ?? [], agent: { id: 'agent-1' } });
    await vi.waitFor(() => expect(lines).toHaveLength(1));
    expect(lines[0]).toBeGreaterThan(4 * 2 ** 20);
    expect(lines[0]).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
  });
});
