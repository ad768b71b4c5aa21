import { randomUUID } from 'node:crypto';
import type * as acp from '@agentclientprotocol/sdk';
import { agent, methods, RequestError } from '@agentclientprotocol/sdk';
import type { SessionStore } from 'dsh-agent';
import {
  type AcpQuestionProvider,
  createAcpQuestionProvider,
} from '../questions/acp-question-provider.js';
import type { CheckedAcpAgentOptions } from './acp-agent-options.js';
import type { AcpSession } from './acp-session.js';
import { connectedLogLine } from './connected-log-line.js';
import { describeError } from './describe-error.js';
import { initializeResponse } from './initialize-response.js';
import { promptText } from './prompt-text.js';
import {
  closedWhileLoading,
  listSessionsFailure,
  sessionNotFound,
  turnAlreadyRunning,
  unexpectedFailure,
} from './server-errors.js';
import { sessionListPage } from './session-list-page.js';
import { SessionLoads } from './session-loads.js';
import { MCP_SERVERS_META_KEY } from './session-mcp-servers.js';
import { SessionOpener } from './session-opener.js';
import { sessionWorkspace } from './session-workspace.js';
import { checkWorkingDirectory } from './working-directory.js';

/** The id a `$/cancel_request` names, if it names one. */
function cancelledRequestId(params: unknown): acp.JsonRpcId | undefined {
  const requestId = (params as { requestId?: unknown } | null | undefined)?.requestId;
  return typeof requestId === 'string' || typeof requestId === 'number' ? requestId : undefined;
}

/**
 * The dsh agent on one ACP connection: it owns the sessions opened there and the turns they
 * run, with one method per request or notification the client sends. See `serveAcpAgent`.
 */
export class AcpAgent {
  /** The SDK's connection to the client. */
  readonly connection: acp.AgentConnection;
  /** Resolves once the connection has closed and every turn has ended. */
  readonly done: Promise<void>;
  readonly #options: CheckedAcpAgentOptions;
  readonly #provider: AcpQuestionProvider;
  readonly #opener: SessionOpener;
  readonly #sessions = new Map<string, AcpSession>();
  readonly #turns = new Set<Promise<unknown>>();
  // The running prompts by request id, for `$/cancel_request`. The SDK keeps its own entries
  // by id too, but a refused request reusing a running prompt's id replaces that prompt's
  // entry (and deletes it when refused): ours keeps the first, and only prompts that run.
  readonly #runningPrompts = new Map<acp.JsonRpcId, AcpSession>();
  readonly #loads = new SessionLoads();
  #clientCapabilities: acp.ClientCapabilities | undefined;
  #disconnected = false;

  constructor(stream: acp.Stream, options: CheckedAcpAgentOptions) {
    this.#options = options;
    this.connection = this.#app().connect(stream);
    this.#provider = createAcpQuestionProvider({
      connection: this.connection,
      clientCapabilities: () => this.#clientCapabilities,
      // The agent of a session has the session's id: route each question to its session.
      scopeFor: (request) => this.#sessions.get(request.agent?.id ?? '')?.scopeFor(request),
      permissionScopeFor: (request) =>
        this.#sessions.get(request.agent?.id ?? '')?.scopeFor(request),
      questionsAsPermissions: options.questionsAsPermissions,
    });
    this.#opener = new SessionOpener({
      options,
      connection: this.connection,
      provider: this.#provider,
      clientCapabilities: () => this.#clientCapabilities,
      isOpen: (sessionId) => !this.#disconnected && this.#sessions.has(sessionId),
    });
    this.done = this.connection.closed.then(() => this.#disconnect());
  }

  /** How many sessions are open. */
  get sessions(): number {
    return this.#sessions.size;
  }

  /** The handlers of the client's requests and notifications: each calls its method. */
  #app(): acp.AgentApp {
    return (
      agent({ name: this.#options.agentInfo.name })
        .onRequest(methods.agent.initialize, ({ params }) => this.initialize(params))
        .onRequest(methods.agent.session.new, ({ params }) => this.newSession(params))
        .onRequest(methods.agent.session.load, ({ params }) => this.loadSession(params))
        .onRequest(methods.agent.session.list, ({ params }) => this.listSessions(params))
        // Registered before session/cancel, so a prompt followed at once by its cancel reaches
        // its handler (and starts its turn) first.
        .onRequest(methods.agent.session.prompt, ({ params, signal, requestId }) =>
          this.prompt(params, signal, requestId),
        )
        .onRequest(methods.agent.session.close, ({ params }) => this.closeSession(params))
        .onNotification(methods.agent.session.cancel, ({ params }) => this.cancel(params))
        .onNotification(methods.protocol.cancelRequest, cancelledRequestId, ({ params }) =>
          this.cancelRequest(params),
        )
    );
  }

  /** `initialize`: remembers what the client can show, and says what this agent can do. */
  initialize(params: acp.InitializeRequest): acp.InitializeResponse {
    const { agentInfo, sessionStore, questionsAsPermissions, log } = this.#options;
    this.#clientCapabilities = params.clientCapabilities;
    log(connectedLogLine(params, questionsAsPermissions));
    return initializeResponse(params, agentInfo, { savedSessions: sessionStore !== undefined });
  }

  /** `session/new`: a session of its own agent, with the tools of its workspace and MCP servers. */
  async newSession(params: acp.NewSessionRequest): Promise<acp.NewSessionResponse> {
    checkWorkingDirectory(params.cwd);
    // The workspace's tools first: a failure leaves nothing behind.
    const workspace = await sessionWorkspace(this.#options, params.cwd);
    const stored = this.#options.sessionStore?.create({ cwd: params.cwd });
    const sessionId = stored?.id ?? randomUUID();
    const mcp = await this.#opener.mcpServersOf(sessionId, params.mcpServers);
    try {
      const session = this.#opener.open(sessionId, params.cwd, workspace.agent, stored, mcp);
      this.#sessions.set(sessionId, session);
    } catch (error) {
      await mcp?.close();
      throw error;
    }
    if (mcp !== undefined) this.#opener.tellMcpNotice(sessionId, mcp);
    const { sandboxStatus: sandbox } = workspace;
    const meta = {
      ...(sandbox !== undefined && { dsh: { sandbox } }),
      ...(mcp !== undefined && { [MCP_SERVERS_META_KEY]: mcp.outcomes }),
    };
    return { sessionId, ...(Object.keys(meta).length > 0 && { _meta: meta }) };
  }

  /** `session/load` (with a session store): replays a saved session, then goes on with it. */
  async loadSession(params: acp.LoadSessionRequest): Promise<acp.LoadSessionResponse> {
    const { sessionStore } = this.#options;
    if (sessionStore === undefined) throw RequestError.methodNotFound(methods.agent.session.load);
    checkWorkingDirectory(params.cwd);
    const { sessionId } = params;
    const open = this.#sessions.get(sessionId);
    if (open?.running) throw turnAlreadyRunning(sessionId);
    const response = await this.#loads.run(sessionId, (closing) =>
      this.#load(sessionStore, sessionId, params.mcpServers, open, closing),
    );
    this.#goOnAfterLoad(sessionId);
    return response;
  }

  /** `session/list` (with a session store): the saved sessions, a page at a time. */
  async listSessions(params: acp.ListSessionsRequest): Promise<acp.ListSessionsResponse> {
    const { sessionStore, log } = this.#options;
    if (sessionStore === undefined) throw RequestError.methodNotFound(methods.agent.session.list);
    const cwd = params.cwd ?? undefined;
    if (cwd !== undefined) checkWorkingDirectory(cwd);
    // A file left out (a FIFO, a link, another user's) goes to the log, once per list.
    const onSkipped = (warning: string): void => log(warning);
    let found: Awaited<ReturnType<SessionStore['list']>>;
    try {
      found = await sessionStore.list(cwd === undefined ? { onSkipped } : { cwd, onSkipped });
    } catch (error) {
      const failure = listSessionsFailure(error);
      if (failure === undefined) log(`listing the sessions failed: ${describeError(error)}`);
      throw failure ?? unexpectedFailure();
    }
    return sessionListPage(found, params.cursor);
  }

  /** `session/prompt`: runs one turn; `signal` or a `$/cancel_request` of `requestId` cancels it. */
  async prompt(
    params: acp.PromptRequest,
    signal: AbortSignal,
    requestId: acp.JsonRpcId,
  ): Promise<acp.PromptResponse> {
    const session = this.#sessions.get(params.sessionId);
    if (session === undefined) throw sessionNotFound(params.sessionId);
    if (session.running) throw turnAlreadyRunning(params.sessionId);
    const turn = this.#track(session.prompt(promptText(params.prompt), signal));
    const cancellable = !this.#runningPrompts.has(requestId);
    if (cancellable) {
      this.#runningPrompts.set(requestId, session);
      const forget = (): void => void this.#runningPrompts.delete(requestId);
      turn.then(forget, forget);
    }
    try {
      return await turn;
    } catch (error) {
      if (error instanceof RequestError) throw error;
      this.#options.log(`session ${params.sessionId}: the turn failed: ${describeError(error)}`);
      throw unexpectedFailure();
    }
  }

  /** `session/close`: fails its load in progress, ends its turn and frees the session. */
  async closeSession(params: acp.CloseSessionRequest): Promise<acp.CloseSessionResponse> {
    // A load in progress fails, and has freed the session (and its lock) before the answer.
    await this.#loads.close(params.sessionId);
    // Closing a session that is not open succeeds: the end state is the same.
    const session = this.#sessions.get(params.sessionId);
    if (session !== undefined) {
      this.#sessions.delete(params.sessionId);
      await session.close();
    }
    return {};
  }

  /** `session/cancel`: the session's turn ends `cancelled`, its question withdrawn. */
  cancel(params: acp.CancelNotification): void {
    this.#sessions.get(params.sessionId)?.cancel();
  }

  /** `$/cancel_request` of a running prompt: its turn ends with `-32800`. */
  cancelRequest(requestId: acp.JsonRpcId | undefined): void {
    if (requestId === undefined) return;
    this.#runningPrompts.get(requestId)?.cancel(RequestError.requestCancelled({ requestId }));
  }

  /**
   * Opens a saved session and replays it; `closing` aborts when a session/close of it arrives
   * meanwhile: the replay stops, the session is freed, and the load fails with `SESSION_CLOSED`.
   */
  async #load(
    store: SessionStore,
    sessionId: string,
    mcpServers: readonly acp.McpServer[],
    open: AcpSession | undefined,
    closing: AbortSignal,
  ): Promise<acp.LoadSessionResponse> {
    if (open !== undefined) {
      // Loaded again: told again from the file, which holds all it said. A question that waits
      // (a turn that went on after a restart) stays waiting there, to be asked again.
      this.#sessions.delete(sessionId);
      open.detach();
      await open.close();
    }
    const { session, mcp } = await this.#opener.openSaved(store, sessionId, mcpServers, closing);
    // The whole conversation reaches the client before the response, as ACP asks.
    await session.replay(closing);
    if (this.#disconnected || closing.aborted) {
      await session.close();
      if (closing.aborted) throw closedWhileLoading(sessionId);
    } else this.#sessions.set(sessionId, session);
    if (mcp === undefined) return {};
    this.#opener.tellMcpNotice(sessionId, mcp);
    return { _meta: { [MCP_SERVERS_META_KEY]: mcp.outcomes } };
  }

  /**
   * A loaded session whose turn stopped while a question or an approval waited goes on with it
   * right after the load's response: the first moment the client knows the session, and
   * elicitations and permission requests are scoped by session, not by prompt.
   */
  #goOnAfterLoad(sessionId: string): void {
    setImmediate(() => {
      const session = this.#sessions.get(sessionId);
      if (session === undefined || this.#disconnected) return;
      this.#track(
        session.resume().catch((error: unknown) => {
          this.#options.log(
            `session ${sessionId}: the resumed turn failed: ${describeError(error)}`,
          );
        }),
      );
    });
  }

  /** Keeps `turn` among those `done` waits for, until it settles. */
  #track<T>(turn: Promise<T>): Promise<T> {
    this.#turns.add(turn);
    const forget = (): void => void this.#turns.delete(turn);
    turn.then(forget, forget);
    return turn;
  }

  /** The client went away: every session is freed, and what waits for the person stays saved. */
  async #disconnect(): Promise<void> {
    this.#disconnected = true;
    // What waits for the person stays waiting in the saved sessions: asked again at their load.
    for (const session of this.#sessions.values()) session.detach();
    this.#provider.dispose();
    const open = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.allSettled([...open.map((session) => session.close()), ...this.#turns]);
  }
}
