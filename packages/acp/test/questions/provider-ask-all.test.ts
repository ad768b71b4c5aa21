import { getEventListeners } from 'node:events';
import type { SendRequestOptions } from '@agentclientprotocol/sdk';
import { deferred } from 'dsh-agent/testing';
import { type AskUserQuestionsRequest, createUserInteraction } from 'dsh-user-interaction';
import { describe, expect, it } from 'vitest';
import { type AcpClientConnection, createAcpQuestionProvider } from '../../src/index.js';
import { codeOf } from '../support/code-of.js';

const TWO_CHOICES: AskUserQuestionsRequest = {
  questions: [
    {
      id: 'db',
      question: 'Which database?',
      options: [{ label: 'PostgreSQL' }, { label: 'SQLite' }],
    },
    { id: 'ci', question: 'Which CI?', options: [{ label: 'Actions' }, { label: 'None' }] },
  ],
  agent: { id: 'agent-1' },
};

interface Sent {
  readonly method: string;
  readonly params: unknown;
  readonly options: SendRequestOptions | undefined;
  reply(value: unknown): void;
}

/** A connection whose requests wait until the test replies to them. */
function heldConnection() {
  const closer = new AbortController();
  const sent: Sent[] = [];
  let arrived = deferred<void>();
  const connection: AcpClientConnection = {
    client: {
      request: ((method: string, params: unknown, options?: SendRequestOptions) => {
        const { promise, resolve } = deferred<unknown>();
        sent.push({ method, params, options, reply: resolve });
        arrived.resolve();
        arrived = deferred<void>();
        return promise;
      }) as AcpClientConnection['client']['request'],
    },
    signal: closer.signal,
  };
  return {
    connection,
    sent,
    /** Resolves once `count` requests were sent. */
    async sentCount(count: number) {
      while (sent.length < count) await arrived.promise;
    },
  };
}

const scopeFor = () => ({ sessionId: 'session-1', toolCallId: 'call-1' });
const selected = (optionId: string) => ({ outcome: { outcome: 'selected', optionId } });

/** A provider for a client without forms, asking questions as permission requests it holds. */
function permissionProvider() {
  const { connection, sent, sentCount } = heldConnection();
  const provider = createAcpQuestionProvider({
    connection,
    clientCapabilities: {},
    scopeFor,
    questionsAsPermissions: true,
  });
  return { provider, sent, sentCount };
}

describe('askAll without form elicitation', () => {
  it('asks one question after another, each once the one before is answered', async () => {
    const { provider, sent, sentCount } = permissionProvider();
    const asking = provider.askAll(TWO_CHOICES);
    await sentCount(1);
    expect(sent.map(({ method }) => method)).toEqual(['session/request_permission']);
    sent[0]?.reply(selected('option-1'));
    await sentCount(2);
    expect(sent[1]?.params).toMatchObject({
      toolCall: { toolCallId: 'call-1', title: 'Which CI?' },
    });
    sent[1]?.reply(selected('option-0'));
    const answer = await asking;
    expect(answer.answers.map((item) => item.answers)).toEqual([['SQLite'], ['Actions']]);
  });

  it('sends nothing more once withdrawn, and withdraws the request on screen', async () => {
    const { provider, sent, sentCount } = permissionProvider();
    const turn = new AbortController();
    const asking = provider.askAll({ ...TWO_CHOICES, signal: turn.signal });
    await sentCount(1);
    turn.abort();
    expect(await codeOf(asking)).toBe('ASK_ABORTED');
    expect(sent[0]?.options?.cancellationSignal?.aborted).toBe(true);
    // The client's late answer to the first question sends no second.
    sent[0]?.reply(selected('option-0'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toHaveLength(1);
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0);
    expect(provider.pending).toBe(0);
  });

  it.each([
    [
      'a question without options',
      { id: 'name', question: 'Which name?' },
      '`name` has no options',
    ],
    [
      'a question with several choices',
      { id: 'f', question: 'F?', options: [{ label: 'A' }], multiSelect: true },
      '`f` takes several choices',
    ],
  ])('fails with UNSUPPORTED for %s, before anything is sent', async (_name, item, message) => {
    const { connection, sent } = heldConnection();
    const provider = createAcpQuestionProvider({
      connection,
      clientCapabilities: {},
      scopeFor,
      questionsAsPermissions: true,
    });
    const error = await provider
      .askAll({ ...TWO_CHOICES, questions: [...TWO_CHOICES.questions, item] })
      .catch((failure: unknown) => failure);
    expect(error).toMatchObject({ code: 'UNSUPPORTED' });
    expect((error as Error).message).toContain(message);
    expect(sent).toHaveLength(0);
  });
});

describe('askAll with form elicitation', () => {
  it('sends one form, and the service checks the answers it maps back', async () => {
    const { connection, sent, sentCount } = heldConnection();
    const provider = createAcpQuestionProvider({
      connection,
      clientCapabilities: { elicitation: { form: {} } },
      scopeFor,
    });
    const interaction = createUserInteraction();
    interaction.registerProvider(provider);
    const asking = interaction.askAll(TWO_CHOICES);
    await sentCount(1);
    expect(sent[0]).toMatchObject({
      method: 'elicitation/create',
      params: { sessionId: 'session-1', toolCallId: 'call-1', mode: 'form' },
    });
    sent[0]?.reply({ action: 'accept', content: { db: 'PostgreSQL', 'ci:custom': 'GitLab' } });
    await expect(asking).resolves.toMatchObject({
      answers: [
        { id: 'db', answers: ['PostgreSQL'] },
        { id: 'ci', answers: ['GitLab'], custom: 'GitLab' },
      ],
    });
  });

  it('withdraws the form at the time limit, and fails routing with ASK_FAILED', async () => {
    const { connection, sent, sentCount } = heldConnection();
    const forms = { elicitation: { form: {} } };
    const provider = createAcpQuestionProvider({ connection, clientCapabilities: forms, scopeFor });
    const interaction = createUserInteraction();
    interaction.registerProvider(provider);
    const timed = interaction.askAll({ ...TWO_CHOICES, timeoutMs: 20 });
    await sentCount(1);
    expect(await codeOf(timed)).toBe('ASK_TIMEOUT');
    expect(sent[0]?.options?.cancellationSignal?.aborted).toBe(true);
    const unrouted = createAcpQuestionProvider({
      connection,
      clientCapabilities: forms,
      scopeFor: () => undefined,
    });
    expect(await codeOf(unrouted.askAll(TWO_CHOICES))).toBe('ASK_FAILED');
  });

  it('dispose withdraws a pending form with INPUT_CLOSED, and refuses later asks', async () => {
    const { connection, sent, sentCount } = heldConnection();
    const provider = createAcpQuestionProvider({
      connection,
      clientCapabilities: { elicitation: { form: {} } },
      scopeFor,
    });
    const asking = provider.askAll(TWO_CHOICES);
    await sentCount(1);
    provider.dispose();
    expect(await codeOf(asking)).toBe('INPUT_CLOSED');
    expect(sent[0]?.options?.cancellationSignal?.aborted).toBe(true);
    expect(await codeOf(provider.askAll(TWO_CHOICES))).toBe('INPUT_CLOSED');
    expect(sent).toHaveLength(1);
  });
});
