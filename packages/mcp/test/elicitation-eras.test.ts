import type { Client } from '@modelcontextprotocol/client';
import { createUserInteraction, FULL_CAPABILITIES } from 'dsh-user-interaction';
import { createScriptedProvider, type ScriptedAnswer } from 'dsh-user-interaction/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerElicitations, type ElicitationRecord, isMcpError } from '../src/index.js';
import { elicitingStdioClient } from './support/eliciting-client.js';
import { askForm, askUrl, ERAS, type Era, inMemoryClient } from './support/loopback.js';

const open: Client[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});

/** A client over stdio whose questions the scripted `replies` answer (`openUrl` opens a URL). */
function overStdio(era: Era, replies: ScriptedAnswer[], openUrl?: (url: string) => void) {
  return elicitingStdioClient(era, open, replies, openUrl === undefined ? {} : { openUrl });
}

describe.each(ERAS)('over stdio, %s era', (era) => {
  it('answers a form, reviewed, through the active UI', async () => {
    const { client, provider } = await overStdio(era, [
      { answers: { f0: { custom: 'harbor' }, f1: { custom: '4' } } },
      { label: 'Send' },
    ]);
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' }, count: { type: 'integer', minimum: 1 } },
      required: ['name', 'count'],
    };
    expect(await askForm(client, schema, 'Name the service')).toEqual({
      action: 'accept',
      content: { name: 'harbor', count: 4 },
    });
    expect(provider.batches[0]?.questions[0]?.question).toContain(
      'accounts asks: Name the service',
    );
  });

  it('keeps decline and cancel distinct', async () => {
    const { client } = await overStdio(era, [
      { error: 'ASK_DECLINED' },
      { error: 'ASK_CANCELLED' },
    ]);
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } } };
    expect(await askForm(client, schema)).toMatchObject({ action: 'decline' });
    expect(await askForm(client, schema)).toMatchObject({ action: 'cancel' });
  });

  it('asks consent for a URL, showing it whole with its domain, and opens it only after consent', async () => {
    const opened: string[] = [];
    const { client, provider } = await overStdio(
      era,
      [{ label: 'Decline' }, { label: 'Open in my browser' }],
      (url) => opened.push(url),
    );
    const url = 'https://login.example.com/oauth/authorize?state=1';
    expect(await askUrl(client, url)).toMatchObject({ action: 'decline' });
    expect(opened).toEqual([]);
    expect(await askUrl(client, url)).toMatchObject({ action: 'accept' });
    expect(opened).toEqual([url]);
    const question = provider.requests[0]?.question ?? '';
    expect(question).toContain('Domain: login.example.com');
    expect(question).toContain(`Full address: ${url}`);
    expect(question).not.toContain('Punycode');
  });
});

describe('URL consent', () => {
  it('warns of Punycode and of text before an @, naming the real domain', async () => {
    const { client, provider } = await overStdio('legacy', [
      { label: 'Decline' },
      { label: 'Decline' },
    ]);
    await askUrl(client, 'https://xn--pple-43d.com/login');
    expect(provider.requests[0]?.question).toContain('Domain: xn--pple-43d.com');
    expect(provider.requests[0]?.question).toContain('Punycode; it displays as "аpple.com"');
    await askUrl(client, 'https://bank.com@evil.example/login');
    expect(provider.requests[1]?.question).toContain('Domain: evil.example');
    expect(provider.requests[1]?.question).toContain('text before an "@"');
  });

  it('declines a non-web address without asking', async () => {
    const { client, provider, records } = await overStdio('legacy', []);
    expect(await askUrl(client, 'javascript:alert(1)')).toEqual({
      action: 'decline',
      _meta: {
        'dev.dsh/reason': 'the server sent a javascript: address; only web addresses are opened',
      },
    });
    expect(provider.requests).toHaveLength(0);
    expect(records[0]?.action).toBe('decline');
  });
});

describe('what the UI cannot show', () => {
  it('declines with the reason when the UI takes no typed answers', async () => {
    const interaction = createUserInteraction();
    interaction.registerProvider(
      createScriptedProvider({
        capabilities: { ...FULL_CAPABILITIES, freeForm: false, customAnswer: false },
      }),
    );
    const client = await inMemoryClient((client) =>
      answerElicitations(client, interaction, { serverName: 's' }),
    );
    open.push(client);
    const answer = (await askForm(client, {
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name'],
    })) as {
      action: string;
      _meta: Record<string, string>;
    };
    expect(answer.action).toBe('decline');
    expect(answer._meta['dev.dsh/reason']).toMatch(/^UNSUPPORTED: /);
  });

  it('declines with the reason when no UI is registered', async () => {
    const client = await inMemoryClient((client) =>
      answerElicitations(client, createUserInteraction(), { serverName: 's' }),
    );
    open.push(client);
    expect(
      await askForm(client, { type: 'object', properties: { ok: { type: 'boolean' } } }),
    ).toMatchObject({
      action: 'decline',
      _meta: { 'dev.dsh/reason': expect.stringMatching(/^NO_PROVIDER: /) },
    });
  });
});

describe('registration', () => {
  it('refuses a client that is already connected, since capabilities are fixed at connect', async () => {
    const client = await inMemoryClient(() => {});
    open.push(client);
    let caught: unknown;
    try {
      answerElicitations(client, createUserInteraction(), { serverName: 's' });
    } catch (error) {
      caught = error;
    }
    expect(isMcpError(caught, 'MCP_CLIENT_CONNECTED')).toBe(true);
  });

  it('withdraws the question when the call it belongs to is cancelled, and sends cancel', async () => {
    const interaction = createUserInteraction();
    const provider = createScriptedProvider();
    interaction.registerProvider(provider);
    const records: ElicitationRecord[] = [];
    const stop = new AbortController();
    const client = await inMemoryClient((client) =>
      answerElicitations(client, interaction, {
        serverName: 's',
        onRecord: (record) => records.push(record),
        callContext: () => ({ signal: stop.signal }),
      }),
    );
    open.push(client);
    const held = provider.hold();
    const call = client.callTool(
      {
        name: 'ask_form',
        arguments: {
          message: 'm',
          schema: JSON.stringify({ type: 'object', properties: { ok: { type: 'boolean' } } }),
        },
      },
      { signal: stop.signal },
    );
    const question = await held;
    stop.abort();
    await expect(call).rejects.toThrow();
    // The SDK's 2025 server leaves its question open when the call is cancelled: the call's own
    // signal withdraws it, so no question outlives its call.
    await question.aborted;
    expect(provider.pending).toBe(0);
    await vi.waitFor(() =>
      expect(records).toMatchObject([{ action: 'cancel', reason: 'ASK_ABORTED' }]),
    );
  });
});
