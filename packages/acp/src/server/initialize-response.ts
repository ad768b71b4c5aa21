import {
  type AgentCapabilities,
  type Implementation,
  type InitializeRequest,
  type InitializeResponse,
  PROTOCOL_VERSION,
} from '@agentclientprotocol/sdk';

/** The ACP protocol versions this server speaks. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly number[] = Object.freeze([PROTOCOL_VERSION]);

/**
 * What this server can do without a session store, and nothing more: no `session/load` or
 * `session/list`, text prompts with resource links and embedded context (no images, no
 * audio), MCP servers over stdio and Streamable HTTP (not the deprecated SSE), and `session/close`.
 */
export const AGENT_CAPABILITIES: AgentCapabilities = Object.freeze({
  loadSession: false,
  promptCapabilities: { image: false, audio: false, embeddedContext: true },
  mcpCapabilities: { http: true, sse: false },
  sessionCapabilities: { close: {} },
});

/** What this server can do with a session store: `session/load` and `session/list` too. */
export const SAVED_SESSIONS_CAPABILITIES: AgentCapabilities = Object.freeze({
  ...AGENT_CAPABILITIES,
  loadSession: true,
  sessionCapabilities: { close: {}, list: {} },
});

/** The version to answer with: the client's when this server speaks it, else the latest it does. */
export function negotiateProtocolVersion(requested: number): number {
  if (SUPPORTED_PROTOCOL_VERSIONS.includes(requested)) return requested;
  return Math.max(...SUPPORTED_PROTOCOL_VERSIONS);
}

/**
 * The `initialize` response: the negotiated version, the capabilities (`savedSessions`: with
 * a session store) and who we are.
 */
export function initializeResponse(
  request: Pick<InitializeRequest, 'protocolVersion'>,
  agentInfo: Implementation,
  { savedSessions = false }: { readonly savedSessions?: boolean } = {},
): InitializeResponse {
  return {
    protocolVersion: negotiateProtocolVersion(request.protocolVersion),
    agentCapabilities: savedSessions ? SAVED_SESSIONS_CAPABILITIES : AGENT_CAPABILITIES,
    agentInfo,
    authMethods: [],
  };
}
