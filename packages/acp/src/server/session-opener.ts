import {
  type AgentConnection,
  type ClientCapabilities,
  type McpServer,
  methods,
  type RequestError,
  type SessionUpdate,
} from '@agentclientprotocol/sdk';
import type { SessionStore, StoredSession } from 'dsh-agent';
import type { AcpQuestionProvider } from '../questions/acp-question-provider.js';
import { supportsFormElicitation } from '../questions/supports-form-elicitation.js';
import type { CheckedAcpAgentOptions } from './acp-agent-options.js';
import { AcpSession, type SessionAgentOptions } from './acp-session.js';
import { boundedUpdate } from './bounded-update.js';
import { describeError } from './describe-error.js';
import { closedWhileLoading, loadSessionFailure, unexpectedFailure } from './server-errors.js';
import { connectSessionMcpServers, type SessionMcpServers } from './session-mcp-servers.js';
import { sessionWorkspace, withMcpServers } from './session-workspace.js';
import { supportsNotices } from './supports-notices.js';

/** What a `SessionOpener` opens sessions with: the connection's parts. */
export interface SessionOpenerOptions {
  readonly options: CheckedAcpAgentOptions;
  readonly connection: AgentConnection;
  /** The connection's question UI: every session registers it in its own question service. */
  readonly provider: AcpQuestionProvider;
  /** What the client said it can show, at `initialize`. */
  readonly clientCapabilities: () => ClientCapabilities | undefined;
  /** Whether the session is open and the client still connected. */
  readonly isOpen: (sessionId: string) => boolean;
}

/** A session just opened, and the MCP servers it connected (none given: `undefined`). */
export interface OpenedSession {
  readonly session: AcpSession;
  readonly mcp: SessionMcpServers | undefined;
}

/** Opens the sessions of one connection: each with its own agent, new or saved. */
export class SessionOpener {
  readonly #parts: SessionOpenerOptions;

  constructor(parts: SessionOpenerOptions) {
    this.#parts = parts;
  }

  /** A session of the agent in `workspace`, with the tools of its MCP servers. */
  open(
    sessionId: string,
    cwd: string,
    workspace: SessionAgentOptions,
    stored?: StoredSession,
    mcp?: SessionMcpServers,
  ): AcpSession {
    const { connection, provider, clientCapabilities } = this.#parts;
    const send = (update: SessionUpdate): Promise<void> =>
      // A failed write closes the connection, which ends the turn: nothing to do here.
      connection.client
        .notify(methods.client.session.update, {
          sessionId,
          update: boundedUpdate(sessionId, update),
        })
        .catch(() => {});
    return new AcpSession({
      sessionId,
      cwd,
      provider,
      agent: withMcpServers(workspace, mcp),
      send,
      notices: () => supportsNotices(clientCapabilities()),
      ...(stored !== undefined && { stored }),
      ...(mcp !== undefined && { onClose: () => mcp.close() }),
    });
  }

  /**
   * Opens a saved session (not yet replayed); `closing` aborts when a `session/close` of it
   * arrives meanwhile: what was opened is freed, and the load fails with `SESSION_CLOSED`.
   */
  async openSaved(
    store: SessionStore,
    sessionId: string,
    mcpServers: readonly McpServer[],
    closing: AbortSignal,
  ): Promise<OpenedSession> {
    const { log } = this.#parts.options;
    if (closing.aborted) throw closedWhileLoading(sessionId);
    let stored: StoredSession;
    try {
      stored = await store.open(sessionId);
    } catch (error) {
      throw this.#loadFailure(sessionId, error);
    }
    if (closing.aborted) {
      await stored.close();
      throw closedWhileLoading(sessionId);
    }
    for (const warning of stored.warnings) log(`session ${sessionId}: ${warning}`);
    let mcp: SessionMcpServers | undefined;
    try {
      const workspace = await sessionWorkspace(this.#parts.options, stored.cwd);
      mcp = await this.mcpServersOf(sessionId, mcpServers);
      return { session: this.open(sessionId, stored.cwd, workspace.agent, stored, mcp), mcp };
    } catch (error) {
      await mcp?.close();
      await stored.close();
      throw this.#loadFailure(sessionId, error);
    }
  }

  /** Connects the MCP servers the editor gave a session; none given, nothing to connect. */
  async mcpServersOf(
    sessionId: string,
    servers: readonly McpServer[],
  ): Promise<SessionMcpServers | undefined> {
    if (servers.length === 0) return undefined;
    const { provider, clientCapabilities, options } = this.#parts;
    return connectSessionMcpServers(servers, {
      sessionId,
      provider,
      forms: supportsFormElicitation(clientCapabilities()),
      // Sent as URL elicitation to an editor that advertised it; declined with the reason otherwise.
      askUrl: (question) => provider.askUrl(question),
      log: options.log,
      trustReadOnlyHint: options.mcpTrustReadOnly,
      ...(options.agent.questionTimeoutMs !== undefined && {
        questionTimeoutMs: options.agent.questionTimeoutMs,
      }),
    });
  }

  /** Tells the person, right after the response, which MCP servers did not connect and why. */
  tellMcpNotice(sessionId: string, mcp: SessionMcpServers): void {
    const { notice } = mcp;
    if (notice === undefined) return;
    setImmediate(() => {
      if (!this.#parts.isOpen(sessionId)) return;
      void this.#parts.connection.client
        .notify(methods.client.session.update, {
          sessionId,
          update: {
            sessionUpdate: 'agent_message_chunk',
            content: { type: 'text', text: `${notice}\n` },
          },
        })
        .catch(() => {});
    });
  }

  #loadFailure(sessionId: string, error: unknown): RequestError {
    const failure = loadSessionFailure(sessionId, error);
    if (failure === undefined) {
      this.#parts.options.log(`session ${sessionId}: loading failed: ${describeError(error)}`);
    }
    return failure ?? unexpectedFailure();
  }
}
