import { randomUUID } from 'node:crypto';
import { posix, win32 } from 'node:path';
import {
  type AgentConnection,
  agent,
  type ClientCapabilities,
  type Implementation,
  type JsonRpcId,
  type McpServer,
  methods,
  RequestError,
  type SessionUpdate,
  type Stream,
} from '@agentclientprotocol/sdk';
import {
  type AgentTool,
  createAgent,
  type PermissionPolicy,
  type SessionStore,
  type StoredSession,
} from 'dsh-agent';
import { createUserInteraction } from 'dsh-user-interaction';
import { packageAgentInfo } from '../agent-info.js';
import { createAcpQuestionProvider } from '../questions/acp-question-provider.js';
import { supportsFormElicitation } from '../questions/supports-form-elicitation.js';
import { logText } from '../stdio/log-text.js';
import { AcpSession, type SessionAgentOptions } from './acp-session.js';
import { boundedUpdate } from './bounded-update.js';
import { initializeResponse } from './initialize-response.js';
import { promptText } from './prompt-text.js';
import {
  closedWhileLoading,
  listSessionsFailure,
  loadSessionFailure,
  nulInWorkingDirectory,
  relativeWorkingDirectory,
  sessionNotFound,
  turnAlreadyRunning,
  unexpectedFailure,
} from './server-errors.js';
import { sessionListPage } from './session-list-page.js';
import {
  connectSessionMcpServers,
  MCP_SERVERS_META_KEY,
  type SessionMcpServers,
} from './session-mcp-servers.js';
import { supportsNotices } from './supports-notices.js';

/** Options of `serveAcpAgent`: the agent every session gets, and how the server presents itself. */
export interface AcpAgentServerOptions extends SessionAgentOptions {
  /** The `agentInfo` of `initialize` (default: this package's name and version). */
  readonly agentInfo?: Implementation;
  /** Receives one line per notable event (a client connected, MCP servers ignored, a failure). */
  readonly log?: (line: string) => void;
  /**
   * Where sessions are saved (see `openSessionStore` in `dsh-agent`): with one, sessions
   * survive a restart and `session/load` and `session/list` are offered; without one, every
   * session lives in memory only.
   */
  readonly sessionStore?: SessionStore;
  /**
   * The tools and permission policy of each session, for its working directory (the
   * workspace): called at `session/new` and `session/load`. Its tools come after `tools`; its
   * policy replaces `permissions`. A failure fails that request.
   */
  readonly toolsFor?: (cwd: string) => SessionTools | Promise<SessionTools>;
  /**
   * For a client without form elicitation, asks questions with one choice as permission
   * requests (default: false: such a client gets no questions, and the model is told to ask in
   * its reply). Only for clients known to show those requests to a person: one that answers
   * them by itself (acpx `--approve-all`) would send the model an answer nobody gave.
   */
  readonly questionsAsPermissions?: boolean;
}

/** What `toolsFor` gives a session. */
export interface SessionTools {
  readonly tools?: readonly AgentTool[];
  readonly permissions?: PermissionPolicy;
  /**
   * One line on how the session's tools run, such as whether commands run in the sandbox: sent
   * as `_meta.dsh.sandbox` of the `session/new` response.
   */
  readonly sandboxStatus?: string;
}

/** A running ACP agent server: one connection, any number of sessions. */
export interface AcpAgentServer {
  /** The SDK's connection to the client. */
  readonly connection: AgentConnection;
  /** How many sessions are open. */
  readonly sessions: number;
  /** Resolves once the connection has closed and every turn has ended. */
  readonly done: Promise<void>;
  /** Closes the connection: pending questions fail with `INPUT_CLOSED` and running turns end. */
  close(reason?: unknown): void;
}

function isAbsolutePath(path: string): boolean {
  // Editors on Windows send drive paths; the agent may run elsewhere than the editor.
  return posix.isAbsolute(path) || win32.isAbsolute(path);
}

/** Throws `-32602` for a `cwd` that cannot name a folder: relative, or holding a NUL. */
function checkWorkingDirectory(cwd: string): void {
  // No file system takes a NUL in a path: Node would throw deep inside (a -32603).
  if (cwd.includes('\0')) throw nulInWorkingDirectory(cwd);
  if (!isAbsolutePath(cwd)) throw relativeWorkingDirectory(cwd);
}

/** The id a `$/cancel_request` names, if it names one. */
function cancelledRequestId(params: unknown): JsonRpcId | undefined {
  const requestId = (params as { requestId?: unknown } | null | undefined)?.requestId;
  return typeof requestId === 'string' || typeof requestId === 'number' ? requestId : undefined;
}

function noop(): void {}

function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/**
 * Serves the dsh agent loop to an ACP client over `stream` (for an editor, newline-delimited
 * JSON-RPC on stdio: see `acpStdioStream`). Each `session/new` gets its own agent and
 * question service; questions go to the client as forms (a client without them gets none, unless
 * `questionsAsPermissions`); tool calls are shown as ACP tool calls and approved with
 * `session/request_permission`; `session/cancel` ends the session's turn with `cancelled` and withdraws
 * its question. Throws a `TypeError` for invalid agent options.
 */
export function serveAcpAgent(stream: Stream, options: AcpAgentServerOptions): AcpAgentServer {
  const {
    agentInfo = packageAgentInfo(),
    log: logLine,
    sessionStore,
    toolsFor,
    questionsAsPermissions = false,
    ...agentOptions
  } = options;
  // Logging never takes the server down, whatever the given log does.
  const log = (line: string): void => {
    try {
      logLine?.(line);
    } catch {
      // The line is lost; the sessions go on.
    }
  };
  // Fail now, not at the first session/new, on options the agent would reject.
  createAgent({ ...agentOptions, interaction: createUserInteraction() });

  const sessions = new Map<string, AcpSession>();
  const turns = new Set<Promise<unknown>>();
  // The running prompts by request id, for `$/cancel_request`. The SDK keeps its own entries
  // by id too, but a refused request reusing a running prompt's id replaces that prompt's
  // entry (and deletes it when refused): ours keeps the first, and only prompts that run.
  const runningPrompts = new Map<JsonRpcId, AcpSession>();
  // The session/load requests in progress, by session id.
  const loads = new Map<
    string,
    Set<{ readonly closing: AbortController; readonly done: Promise<void> }>
  >();
  let clientCapabilities: ClientCapabilities | undefined;

  const app = agent({ name: agentInfo.name })
    .onRequest(methods.agent.initialize, ({ params }) => {
      clientCapabilities = params.clientCapabilities;
      const client = params.clientInfo
        ? `${logText(params.clientInfo.name)} ${logText(params.clientInfo.version)}`
        : 'a client';
      const questions = supportsFormElicitation(clientCapabilities)
        ? 'questions as forms'
        : questionsAsPermissions
          ? 'no form elicitation: questions with options as permission requests'
          : 'no form elicitation: the model asks in its replies';
      log(`${client} connected (protocol ${params.protocolVersion}; ${questions})`);
      return initializeResponse(params, agentInfo, { savedSessions: sessionStore !== undefined });
    })
    .onRequest(methods.agent.session.new, async ({ params }) => {
      checkWorkingDirectory(params.cwd);
      // The workspace's tools first: a failure leaves nothing behind.
      const tools = await sessionToolsFor(params.cwd);
      const stored = sessionStore?.create({ cwd: params.cwd });
      const sessionId = stored?.id ?? randomUUID();
      const mcp = await mcpServersOf(sessionId, params.mcpServers);
      try {
        sessions.set(sessionId, openSession(sessionId, params.cwd, tools, stored, mcp));
      } catch (error) {
        await mcp?.close();
        throw error;
      }
      if (mcp !== undefined) tellMcpNotice(sessionId, mcp);
      const sandbox = sandboxStatusOf.get(tools);
      const meta = {
        ...(sandbox !== undefined && { dsh: { sandbox } }),
        ...(mcp !== undefined && { [MCP_SERVERS_META_KEY]: mcp.outcomes }),
      };
      return { sessionId, ...(Object.keys(meta).length > 0 && { _meta: meta }) };
    })
    .onRequest(methods.agent.session.load, async ({ params }) => {
      if (sessionStore === undefined) throw RequestError.methodNotFound(methods.agent.session.load);
      checkWorkingDirectory(params.cwd);
      const { sessionId } = params;
      const open = sessions.get(sessionId);
      if (open?.running) throw turnAlreadyRunning(sessionId);
      // A session/close of this id while it loads wins: it aborts `closing`, the load fails.
      const closing = new AbortController();
      const load = loadSession(sessionStore, sessionId, params.mcpServers, open, closing.signal);
      const entry = { closing, done: load.then(noop, noop) };
      const ofSession = loads.get(sessionId) ?? new Set();
      loads.set(sessionId, ofSession.add(entry));
      try {
        const response = await load;
        goOnAfterLoad(sessionId);
        return response;
      } finally {
        ofSession.delete(entry);
        if (ofSession.size === 0 && loads.get(sessionId) === ofSession) loads.delete(sessionId);
      }
    })
    .onRequest(methods.agent.session.list, async ({ params }) => {
      if (sessionStore === undefined) throw RequestError.methodNotFound(methods.agent.session.list);
      const cwd = params.cwd ?? undefined;
      if (cwd !== undefined) checkWorkingDirectory(cwd);
      // A file left out (a FIFO, a link, another user's) goes to the log, once per list.
      const onSkipped = (warning: string): void => log(warning);
      let found: Awaited<ReturnType<SessionStore['list']>>;
      try {
        found = await sessionStore.list(cwd === undefined ? { onSkipped } : { cwd, onSkipped });
      } catch (error) {
        throw listFailure(error);
      }
      return sessionListPage(found, params.cursor);
    })
    // Registered before session/cancel, so a prompt followed at once by its cancel reaches
    // its handler (and starts its turn) first.
    .onRequest(methods.agent.session.prompt, async ({ params, signal, requestId }) => {
      const session = sessions.get(params.sessionId);
      if (session === undefined) throw sessionNotFound(params.sessionId);
      if (session.running) throw turnAlreadyRunning(params.sessionId);
      const turn = session.prompt(promptText(params.prompt), signal);
      turns.add(turn);
      const cancellable = !runningPrompts.has(requestId);
      if (cancellable) runningPrompts.set(requestId, session);
      const forget = (): void => {
        turns.delete(turn);
        if (cancellable) runningPrompts.delete(requestId);
      };
      turn.then(forget, forget);
      try {
        return await turn;
      } catch (error) {
        if (error instanceof RequestError) throw error;
        log(`session ${params.sessionId}: the turn failed: ${describeError(error)}`);
        throw unexpectedFailure();
      }
    })
    .onRequest(methods.agent.session.close, async ({ params }) => {
      // A load in progress fails, and has freed the session (and its lock) before the answer.
      const inProgress = [...(loads.get(params.sessionId) ?? [])];
      for (const load of inProgress) load.closing.abort();
      await Promise.all(inProgress.map((load) => load.done));
      // Closing a session that is not open succeeds: the end state is the same.
      const session = sessions.get(params.sessionId);
      if (session !== undefined) {
        sessions.delete(params.sessionId);
        await session.close();
      }
      return {};
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    })
    .onNotification(methods.protocol.cancelRequest, cancelledRequestId, ({ params }) => {
      if (params === undefined) return;
      runningPrompts.get(params)?.cancel(RequestError.requestCancelled({ requestId: params }));
    });

  /**
   * Opens a saved session and replays it; `closing` aborts when a session/close of it arrives
   * meanwhile: the replay stops, the session is freed, and the load fails with `SESSION_CLOSED`.
   */
  async function loadSession(
    store: SessionStore,
    sessionId: string,
    mcpServers: readonly McpServer[],
    open: AcpSession | undefined,
    closing: AbortSignal,
  ): Promise<{ _meta?: Record<string, unknown> }> {
    if (open !== undefined) {
      // Loaded again: told again from the file, which holds all it said. A question that waits
      // (a turn that went on after a restart) stays waiting there, to be asked again.
      sessions.delete(sessionId);
      open.detach();
      await open.close();
    }
    if (closing.aborted) throw closedWhileLoading(sessionId);
    let stored: StoredSession;
    try {
      stored = await store.open(sessionId);
    } catch (error) {
      throw loadFailure(sessionId, error);
    }
    if (closing.aborted) {
      await stored.close();
      throw closedWhileLoading(sessionId);
    }
    for (const warning of stored.warnings) log(`session ${sessionId}: ${warning}`);
    let session: AcpSession;
    let mcp: SessionMcpServers | undefined;
    try {
      const tools = await sessionToolsFor(stored.cwd);
      mcp = await mcpServersOf(sessionId, mcpServers);
      session = openSession(sessionId, stored.cwd, tools, stored, mcp);
    } catch (error) {
      await mcp?.close();
      await stored.close();
      throw loadFailure(sessionId, error);
    }
    // The whole conversation reaches the client before the response, as ACP asks.
    await session.replay(closing);
    if (disconnected || closing.aborted) {
      await session.close();
      if (closing.aborted) throw closedWhileLoading(sessionId);
    } else sessions.set(sessionId, session);
    if (mcp === undefined) return {};
    tellMcpNotice(sessionId, mcp);
    return { _meta: { [MCP_SERVERS_META_KEY]: mcp.outcomes } };
  }

  /**
   * A loaded session whose turn stopped while a question or an approval waited goes on with it
   * right after the load's response: the first moment the client knows the session, and
   * elicitations and permission requests are scoped by session, not by prompt.
   */
  function goOnAfterLoad(sessionId: string): void {
    setImmediate(() => {
      const session = sessions.get(sessionId);
      if (session === undefined || disconnected) return;
      const turn = session.resume().catch((error: unknown) => {
        log(`session ${sessionId}: the resumed turn failed: ${describeError(error)}`);
      });
      turns.add(turn);
      turn.then(() => turns.delete(turn));
    });
  }

  /** Connects the MCP servers the editor gave a session; none given, nothing to connect. */
  async function mcpServersOf(
    sessionId: string,
    servers: readonly McpServer[],
  ): Promise<SessionMcpServers | undefined> {
    if (servers.length === 0) return undefined;
    return connectSessionMcpServers(servers, {
      sessionId,
      provider,
      forms: supportsFormElicitation(clientCapabilities),
      log,
    });
  }

  /** Tells the person, right after the response, which MCP servers did not connect and why. */
  function tellMcpNotice(sessionId: string, mcp: SessionMcpServers): void {
    const { notice } = mcp;
    if (notice === undefined) return;
    setImmediate(() => {
      if (disconnected || !sessions.has(sessionId)) return;
      void connection.client
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

  /** What `toolsFor` said of how a session's tools run, by the options made from it. */
  const sandboxStatusOf = new WeakMap<SessionAgentOptions, string>();

  /** The session's agent options: the server's, with the tools and policy of its workspace. */
  async function sessionToolsFor(cwd: string): Promise<SessionAgentOptions> {
    if (toolsFor === undefined) return agentOptions;
    let given: SessionTools;
    try {
      given = await toolsFor(cwd);
    } catch (error) {
      log(`the tools for ${logText(cwd)} failed: ${describeError(error)}`);
      throw unexpectedFailure();
    }
    const tools = [...(agentOptions.tools ?? []), ...(given?.tools ?? [])];
    const permissions = given?.permissions ?? agentOptions.permissions;
    const options = {
      ...agentOptions,
      ...(tools.length > 0 && { tools }),
      ...(permissions !== undefined && { permissions }),
    };
    if (given?.sandboxStatus !== undefined) sandboxStatusOf.set(options, given.sandboxStatus);
    return options;
  }

  function openSession(
    sessionId: string,
    cwd: string,
    workspace: SessionAgentOptions,
    stored?: StoredSession,
    mcp?: SessionMcpServers,
  ): AcpSession {
    const tools = [...(workspace.tools ?? []), ...(mcp?.tools ?? [])];
    const permissions = mcp?.permissions(workspace.permissions) ?? workspace.permissions;
    const sessionAgent: SessionAgentOptions = {
      ...workspace,
      ...(tools.length > 0 && { tools }),
      ...(permissions !== undefined && { permissions }),
    };
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
      agent: sessionAgent,
      send,
      notices: () => supportsNotices(clientCapabilities),
      ...(stored !== undefined && { stored }),
      ...(mcp !== undefined && { onClose: () => mcp.close() }),
    });
  }

  function listFailure(error: unknown): RequestError {
    const failure = listSessionsFailure(error);
    if (failure === undefined) log(`listing the sessions failed: ${describeError(error)}`);
    return failure ?? unexpectedFailure();
  }

  function loadFailure(sessionId: string, error: unknown): RequestError {
    const failure = loadSessionFailure(sessionId, error);
    if (failure === undefined) log(`session ${sessionId}: loading failed: ${describeError(error)}`);
    return failure ?? unexpectedFailure();
  }

  const connection = app.connect(stream);
  const provider = createAcpQuestionProvider({
    connection,
    clientCapabilities: () => clientCapabilities,
    // The agent of a session has the session's id: route each question to its session.
    scopeFor: (request) => sessions.get(request.agent?.id ?? '')?.scopeFor(request),
    permissionScopeFor: (request) => sessions.get(request.agent?.id ?? '')?.scopeFor(request),
    questionsAsPermissions,
  });

  let disconnected = false;
  const done = connection.closed.then(async () => {
    disconnected = true;
    // What waits for the person stays waiting in the saved sessions: asked again at their load.
    for (const session of sessions.values()) session.detach();
    provider.dispose();
    const open = [...sessions.values()];
    sessions.clear();
    await Promise.allSettled([...open.map((session) => session.close()), ...turns]);
  });

  return {
    connection,
    get sessions() {
      return sessions.size;
    },
    done,
    close: (reason) => connection.close(reason),
  };
}
