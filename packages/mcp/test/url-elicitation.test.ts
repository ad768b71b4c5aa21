import type { Client } from '@modelcontextprotocol/client';
import { createUserInteraction, unsupportedError } from 'dsh-user-interaction';
import { createScriptedProvider } from 'dsh-user-interaction/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type AskUrl, connectMcpServer, type UrlElicitationRequest } from '../src/index.js';
import { elicitingStdioClient } from './support/eliciting-client.js';
import { askUrl, ERAS, type Era, STDIO_SERVER } from './support/loopback.js';

const open: Client[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});

/** A client of `era` whose URL elicitations go to `askUrl` (no question UI answers anything). */
function withAskUrl(era: Era, askUrl: AskUrl) {
  return elicitingStdioClient(era, open, [], { askUrl });
}

describe.each(ERAS)('askUrl, %s era', (era) => {
  it("hands the URL to the UI's own URL elicitation, naming the server, and relays each action", async () => {
    const seen: UrlElicitationRequest[] = [];
    const actions = ['accept', 'decline', 'cancel'] as const;
    const { client, provider } = await withAskUrl(era, async (request) => {
      seen.push(request);
      return actions[seen.length - 1] ?? 'decline';
    });
    const url = 'https://xn--pple-43d.com/oauth?state=1';
    expect(await askUrl(client, url)).toMatchObject({ action: 'accept' });
    expect(await askUrl(client, url)).toMatchObject({ action: 'decline' });
    expect(await askUrl(client, url)).toMatchObject({ action: 'cancel' });
    expect(seen[0]).toMatchObject({ serverName: 'accounts', url });
    expect(seen[0]?.message).toContain('MCP server accounts asks you to open a web page.');
    expect(seen[0]?.message).toContain('Sign in to link your account');
    expect(seen[0]?.message).toContain('Domain: xn--pple-43d.com');
    expect(seen[0]?.message).toContain('Punycode; it displays as "аpple.com"');
    // The consent question of the seam was not asked in its place.
    expect(provider.requests).toEqual([]);
  });

  it('declines with the reason when the UI cannot show a URL elicitation', async () => {
    const { client, records } = await withAskUrl(era, () =>
      Promise.reject(unsupportedError('this editor has no URL elicitation')),
    );
    expect(await askUrl(client, 'https://login.example.com/')).toMatchObject({
      action: 'decline',
    });
    expect(records).toEqual([
      expect.objectContaining({
        mode: 'url',
        action: 'decline',
        reason: expect.stringMatching(/^UNSUPPORTED: .*no URL elicitation/),
      }),
    ]);
  });

  it('never hands over an address that is not a web address', async () => {
    const seen: UrlElicitationRequest[] = [];
    const { client } = await withAskUrl(era, async (request) => {
      seen.push(request);
      return 'accept';
    });
    expect(await askUrl(client, 'javascript:alert(1)')).toMatchObject({ action: 'decline' });
    expect(seen).toEqual([]);
  });
});

describe('a 2026-07-28 URL question in a call whose rounds dsh drives (the agents)', () => {
  it('is asked (its request has no elicitationId in that era), and the answer reaches the server', async () => {
    const interaction = createUserInteraction();
    const provider = createScriptedProvider({
      answers: [{ label: 'I will open it in my browser' }],
    });
    interaction.registerProvider(provider);
    await using connection = await connectMcpServer(
      {
        name: 'accounts',
        transport: 'stdio',
        ...STDIO_SERVER,
        args: [...STDIO_SERVER.args],
        env: {},
      },
      { interaction },
    );
    expect(connection.client.getProtocolEra()).toBe('modern');
    const tool = connection.tools.tools.find(
      (candidate) => candidate.name === 'mcp__accounts__ask_url',
    );
    const result = await tool?.execute(
      { url: 'https://login.example.com/' },
      { signal: new AbortController().signal, toolCallId: 'u1', recordPending: async () => {} },
    );
    expect(result).toEqual({ ok: true, output: '{"action":"accept"}' });
    expect(provider.requests[0]?.question).toContain('Domain: login.example.com');
  });
});
