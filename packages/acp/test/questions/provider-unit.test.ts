import type { SendRequestOptions } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { type AcpClientConnection, createAcpQuestionProvider } from '../../src/index.js';
import { codeOf } from '../support/code-of.js';

const database = {
  question: 'Which database?',
  options: [{ label: 'PostgreSQL', value: 'pg' }, { label: 'SQLite' }],
  agent: { id: 'agent-1' },
};

/** A connection whose requests never settle, as with a client that never answers. */
function silentConnection() {
  const closer = new AbortController();
  const sent: { method: string; options: SendRequestOptions | undefined }[] = [];
  const connection: AcpClientConnection = {
    client: {
      request: ((method: string, _params: unknown, options?: SendRequestOptions) => {
        sent.push({ method, options });
        return new Promise(() => {});
      }) as AcpClientConnection['client']['request'],
    },
    signal: closer.signal,
  };
  return { connection, sent, close: (reason?: unknown) => closer.abort(reason) };
}

const withForms = { elicitation: { form: {} } };
const scopeFor = () => ({ sessionId: 'session-1' });

describe('createAcpQuestionProvider with a stand-in connection', () => {
  it('fails pending asks with INPUT_CLOSED as soon as the connection signal aborts, even if requests never settle', async () => {
    const { connection, sent, close } = silentConnection();
    const provider = createAcpQuestionProvider({
      connection,
      clientCapabilities: withForms,
      scopeFor,
    });
    const first = provider.ask(database);
    const second = provider.ask(database);
    expect(provider.pending).toBe(2);
    const reason = new Error('stdin ended');
    close(reason);
    expect(await codeOf(first)).toBe('INPUT_CLOSED');
    expect(await codeOf(second)).toBe('INPUT_CLOSED');
    await first.catch((error: Error) => expect(error.cause).toBe(reason));
    expect(provider.pending).toBe(0);
    // Nothing to withdraw on a closed connection.
    expect(sent.every(({ options }) => options?.cancellationSignal?.aborted === false)).toBe(true);
  });

  it('refuses asks on a connection that is already closed, sending nothing', async () => {
    const { connection, sent, close } = silentConnection();
    close();
    const provider = createAcpQuestionProvider({
      connection,
      clientCapabilities: withForms,
      scopeFor,
    });
    expect(await codeOf(provider.ask(database))).toBe('INPUT_CLOSED');
    expect(sent).toHaveLength(0);
  });

  it('sends each question with a cancellation signal and stopWaitingOnCancel, and aborts that signal on withdrawal', async () => {
    const { connection, sent } = silentConnection();
    const provider = createAcpQuestionProvider({
      connection,
      clientCapabilities: withForms,
      scopeFor,
    });
    const turn = new AbortController();
    const asked = provider.ask({ ...database, signal: turn.signal });
    expect(sent).toEqual([
      {
        method: 'elicitation/create',
        options: { cancellationSignal: expect.any(AbortSignal), stopWaitingOnCancel: true },
      },
    ]);
    const wire = sent[0]?.options?.cancellationSignal;
    expect(wire?.aborted).toBe(false);
    turn.abort();
    expect(await codeOf(asked)).toBe('ASK_ABORTED');
    expect(wire?.aborted).toBe(true);
  });

  it('reads the capabilities at every ask, so they may arrive after the provider is made', async () => {
    const { connection, sent } = silentConnection();
    let capabilities: { elicitation?: { form?: object } } | undefined;
    const provider = createAcpQuestionProvider({
      connection,
      clientCapabilities: () => capabilities,
      scopeFor,
      permissionScopeFor: scopeFor,
    });
    // Before initialize: no questions, and no approvals either (no client yet).
    expect(provider.capabilities).toEqual({
      freeForm: false,
      customAnswer: false,
      questions: false,
      permissions: false,
    });
    expect(await codeOf(provider.ask(database))).toBe('UNSUPPORTED');
    capabilities = withForms;
    expect(provider.capabilities).toEqual({
      freeForm: true,
      customAnswer: true,
      permissions: true,
    });
    void provider.ask(database).catch(() => {});
    expect(sent.map(({ method }) => method)).toEqual(['elicitation/create']);
    provider.dispose();
  });

  it('with questionsAsPermissions, asks a client without forms through a permission request', async () => {
    const { connection, sent } = silentConnection();
    let capabilities: { elicitation?: { form?: object } } | undefined = {};
    const provider = createAcpQuestionProvider({
      connection,
      clientCapabilities: () => capabilities,
      scopeFor,
      questionsAsPermissions: true,
    });
    expect(provider.capabilities).toEqual({
      freeForm: false,
      customAnswer: false,
      permissions: false,
    });
    void provider.ask(database).catch(() => {});
    capabilities = withForms;
    void provider.ask(database).catch(() => {});
    expect(sent.map(({ method }) => method)).toEqual([
      'session/request_permission',
      'elicitation/create',
    ]);
    provider.dispose();
  });

  it('turns a request that throws synchronously into ASK_FAILED', async () => {
    const boom = new Error('write failed');
    const provider = createAcpQuestionProvider({
      connection: {
        client: {
          request: (() => {
            throw boom;
          }) as AcpClientConnection['client']['request'],
        },
        signal: new AbortController().signal,
      },
      clientCapabilities: withForms,
      scopeFor,
    });
    const asked = provider.ask(database);
    expect(await codeOf(asked)).toBe('ASK_FAILED');
    await asked.catch((error: Error) => expect(error.cause).toBe(boom));
    expect(provider.pending).toBe(0);
  });

  it('fails with ASK_FAILED when scopeFor gives no session or a malformed scope', async () => {
    const { connection, sent } = silentConnection();
    for (const scope of [undefined, { sessionId: '' }, { sessionId: 's', toolCallId: '' }]) {
      const provider = createAcpQuestionProvider({
        connection,
        clientCapabilities: withForms,
        scopeFor: () => scope,
      });
      expect(await codeOf(provider.ask(database))).toBe('ASK_FAILED');
    }
    expect(sent).toHaveLength(0);
  });

  it('removes its connection listener on dispose', () => {
    const added: string[] = [];
    const removed: string[] = [];
    const signal = new AbortController().signal;
    const spy = Object.assign(Object.create(signal) as AbortSignal, {
      addEventListener: (type: string) => added.push(type),
      removeEventListener: (type: string) => removed.push(type),
    });
    const provider = createAcpQuestionProvider({
      connection: { client: silentConnection().connection.client, signal: spy },
      clientCapabilities: withForms,
      scopeFor,
    });
    expect(added).toEqual(['abort']);
    provider[Symbol.dispose]();
    provider.dispose();
    expect(removed).toEqual(['abort']);
  });
});
