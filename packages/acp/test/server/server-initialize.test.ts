import { methods, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { createScriptedModel } from 'dsh-agent';
import { describe, expect, it } from 'vitest';
import {
  negotiateProtocolVersion,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '../../src/server/initialize-response.js';
import { createTestClient, newSession, withServer } from '../../src/testing.js';
import { MANIFEST } from '../support/package-manifest.js';
import { rejectionOf } from '../support/rejection-of.js';

const options = () => ({ model: createScriptedModel({ steps: [{ text: 'Hello.' }] }) });

describe('initialize', () => {
  it('answers with the negotiated version, honest capabilities and the package name and version', async () => {
    const testClient = createTestClient();
    await withServer(options(), testClient, async ({ agent, log }) => {
      const response = await agent.request(methods.agent.initialize, {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: { elicitation: { form: {} } },
        clientInfo: { name: 'zed', version: '0.200.0' },
      });
      expect(response).toEqual({
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: false,
          promptCapabilities: { image: false, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: false },
          sessionCapabilities: { close: {} },
        },
        agentInfo: { name: MANIFEST.name, title: 'dsh agent', version: MANIFEST.version },
        authMethods: [],
      });
      expect(log).toEqual(['zed 0.200.0 connected (protocol 1; questions as forms)']);
    });
  });

  it.each([
    [PROTOCOL_VERSION + 1, PROTOCOL_VERSION],
    [0, PROTOCOL_VERSION],
  ])(
    'a client asking for version %i gets %i, the latest this server speaks',
    async (asked, answered) => {
      const testClient = createTestClient();
      await withServer(options(), testClient, async ({ agent }) => {
        const response = await agent.request(methods.agent.initialize, {
          protocolVersion: asked,
          clientCapabilities: {},
        });
        expect(response.protocolVersion).toBe(answered);
      });
    },
  );

  it('negotiates: the client version when supported, else the latest supported', () => {
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
      expect(negotiateProtocolVersion(version)).toBe(version);
    }
    expect(negotiateProtocolVersion(99)).toBe(Math.max(...SUPPORTED_PROTOCOL_VERSIONS));
  });

  it('refuses sessions before initialize (-32600), then serves once initialized', async () => {
    const testClient = createTestClient();
    await withServer(options(), testClient, async ({ agent }) => {
      const error = await rejectionOf(newSession(agent));
      expect(error).toMatchObject({ code: -32600 });
      await agent.request(methods.agent.initialize, {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      expect(await newSession(agent)).toEqual(expect.any(String));
    });
  });

  it('rejects unsupported methods with method-not-found, session/load included', async () => {
    const testClient = createTestClient();
    await withServer(options(), testClient, async ({ agent }) => {
      await agent.request(methods.agent.initialize, {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      const error = await rejectionOf(
        agent.request(methods.agent.session.load, { sessionId: 'x', cwd: '/', mcpServers: [] }),
      );
      expect(error).toMatchObject({ code: -32601, data: { method: 'session/load' } });
    });
  });
});
