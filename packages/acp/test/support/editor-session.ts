import {
  type ClientCapabilities,
  type ClientContext,
  type McpServer,
  methods,
  type NewSessionResponse,
} from '@agentclientprotocol/sdk';
import { WITH_FORMS } from '../../src/testing.js';

/** Where an editor opens its session, and what it says it can show. */
export interface EditorSessionOptions {
  /** The session's folder (`/work/project` unless told). */
  readonly cwd?: string;
  /** The MCP servers the editor gives in `session/new` (none unless told). */
  readonly mcpServers?: McpServer[];
  /** The client capabilities of `initialize` (forms unless told). */
  readonly capabilities?: ClientCapabilities;
}

/**
 * Initializes as an editor (protocol version 1) and opens a session, as an editor does before its
 * first prompt: the `session/new` response (its id and `_meta`).
 */
export async function openEditorSession(
  agent: ClientContext,
  options: EditorSessionOptions = {},
): Promise<NewSessionResponse> {
  await agent.request(methods.agent.initialize, {
    protocolVersion: 1,
    clientCapabilities: options.capabilities ?? WITH_FORMS,
  });
  return await agent.request(methods.agent.session.new, {
    cwd: options.cwd ?? '/work/project',
    mcpServers: options.mcpServers ?? [],
  });
}
