import type { CallToolResult, Client, RequestOptions, Tool } from '@modelcontextprotocol/client';
import { type ClientLibrary, clientLibrary } from '../client-library.js';
import type { ElicitationCallContext } from '../elicitation/answer-elicitations.js';
import { isMcpError, McpError } from '../mcp-error.js';
import { toolDigest } from '../rules/tool-digest.js';
import { agentToolName } from './agent-tool-name.js';
import { lostConnectionCode } from './connection-lost.js';
import { IdleWatch } from './idle-watch.js';
import { type AnswerElicitation, callToolInRounds } from './input-rounds.js';
import type { McpAgentTool, McpToolContext, McpToolResult } from './mcp-agent-tool.js';
import { toolResultText } from './tool-result-text.js';

/** How long a server may say nothing during a call before it is given up (default 2 minutes). */
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;

// The longest delay a timer holds: the SDK's own 60 s request timer must never cut off a call
// whose server is waiting for the person; our idle watch (paused meanwhile) bounds it instead.
const NO_SDK_TIMEOUT = 2_147_483_647;

/** One MCP tool as the policy sees it: which server, which tool, and the digest of what it says. */
export interface McpToolInfo {
  readonly serverName: string;
  readonly toolName: string;
  readonly digest: string;
  readonly definition: Tool;
}

/** How a server's tools become agent tools. */
export interface McpToolSetOptions {
  /** The server's name as the person knows it; tools are named `mcp__<server>__<tool>`. */
  readonly serverName: string;
  /** How long the server may say nothing during a call (time a question waits for the person is not counted). */
  readonly idleTimeoutMs?: number;
  /** Told when the server's tools change (`tools/list_changed`), with the new list. */
  readonly onChange?: (tools: readonly McpAgentTool[]) => void;
  /**
   * Answers a 2026-07-28 server's questions (`ElicitationAnswering.answer`): its calls' rounds
   * are then driven here, each stored (`recordPending`) before it is asked. Without it, the
   * SDK answers them inside the call through the client's `elicitation/create` handler.
   */
  readonly answer?: AnswerElicitation;
}

/** A connected server's tools as agent tools, kept in step with the server. */
export interface McpToolSet {
  readonly serverName: string;
  /** The tools the server offers now. */
  readonly tools: readonly McpAgentTool[];
  /** Lists the server's tools again (`tools/list`). */
  refresh(): Promise<readonly McpAgentTool[]>;
  /** Takes a new list of definitions (from a `tools/list_changed` handler). */
  update(definitions: readonly Tool[]): void;
  /** The server, tool and digest behind an agent tool's name, if it is one of this set's. */
  info(agentToolName: string): McpToolInfo | undefined;
  /** The call an elicitation belongs to, when exactly one call is running (for `answerElicitations`). */
  callContext(): ElicitationCallContext | undefined;
  /** Pauses every call's idle limit while a question waits for the person (for `answerElicitations`). */
  waiting(waiting: boolean): void;
}

function clipped(text: string, limit = 300): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

/** The error a failed call gives the model, by what happened (never the raw SDK error). */
function callError(
  error: unknown,
  serverName: string,
  watched: { idle: boolean; limitMs: number; connected: boolean },
  { ProtocolError, SdkError, SdkErrorCode }: ClientLibrary,
): McpError {
  const server = `The MCP server "${serverName}"`;
  if (watched.idle)
    return new McpError(
      `${server} said nothing for ${Math.round(watched.limitMs / 1000)} s; the call was given up.`,
      'MCP_SERVER_TIMEOUT',
    );
  const closedCodes: readonly string[] = [
    SdkErrorCode.ConnectionClosed,
    SdkErrorCode.NotConnected,
    SdkErrorCode.SendFailed,
  ];
  // Over HTTP the connection is a request: a server gone shows as a socket error (see connection-lost.ts).
  const lost = lostConnectionCode(error);
  if (lost !== undefined)
    return new McpError(
      `${server} is gone (${lost}: it closed the connection or refused it); the call did not finish.`,
      'MCP_SERVER_CLOSED',
      { cause: error },
    );
  if (!watched.connected || (error instanceof SdkError && closedCodes.includes(error.code)))
    return new McpError(
      `${server} is gone (its connection closed); the call did not finish.`,
      'MCP_SERVER_CLOSED',
      { cause: error },
    );
  if (error instanceof ProtocolError)
    return new McpError(
      `${server} refused the call: ${clipped(error.message)}`,
      'MCP_CALL_FAILED',
      { cause: error },
    );
  // A result the SDK could not read (such as a 2026-07-28 result without `resultType`): say why.
  if (error instanceof SdkError && error.code === SdkErrorCode.InvalidResult)
    return new McpError(
      `${server} sent a result that cannot be read: ${clipped(error.message)}`,
      'MCP_CALL_FAILED',
      { cause: error },
    );
  return new McpError(`${server} failed the call.`, 'MCP_CALL_FAILED', { cause: error });
}

/**
 * Turns a connected client's tools into agent tools named `mcp__<server>__<tool>`. Every call is
 * described (kind `other`: a server's annotations never skip an approval), cancellable through
 * the turn's signal, and ends with a stable code if the server goes away or says nothing.
 */
export function createMcpToolSet(client: Client, options: McpToolSetOptions): McpToolSet {
  const { serverName } = options;
  const limitMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const definitions = new Map<string, Tool>();
  const infos = new Map<string, McpToolInfo>();
  const calls = new Set<ElicitationCallContext>();
  const watches = new Set<IdleWatch>();
  let waitingNow = false;
  let tools: McpAgentTool[] = [];

  async function execute(
    toolName: string,
    args: unknown,
    context: McpToolContext,
  ): Promise<McpToolResult> {
    if (context.signal.aborted) throw new McpError('The call was cancelled.', 'MCP_CALL_CANCELLED');
    if (!definitions.has(toolName))
      throw new McpError(
        `The MCP server "${serverName}" no longer offers "${toolName}".`,
        'MCP_TOOL_GONE',
      );
    const call: ElicitationCallContext = {
      signal: context.signal,
      ...(context.agent !== undefined && { agent: context.agent }),
    };
    // One controller for the turn's cancel and the idle limit (AbortSignal.any costs more per call).
    const stop = new AbortController();
    let idled = false;
    const watch = new IdleWatch(
      limitMs,
      () => {
        idled = true;
        stop.abort();
      },
      waitingNow,
    );
    const cancel = () => stop.abort();
    context.signal.addEventListener('abort', cancel, { once: true });
    calls.add(call);
    watches.add(watch);
    try {
      const params = {
        name: toolName,
        arguments: (typeof args === 'object' && args !== null ? args : {}) as Record<
          string,
          unknown
        >,
      };
      const requestOptions = {
        signal: stop.signal,
        timeout: NO_SDK_TIMEOUT,
        onprogress: () => watch.touch(),
      };
      const result = await callTool(params, requestOptions, call, context);
      const output = toolResultText(result);
      if (result.isError !== true) return { ok: true, output };
      return {
        ok: false,
        output,
        error: { name: 'McpError', code: 'MCP_TOOL_ERROR', message: clipped(output) },
      };
    } catch (error) {
      if (context.signal.aborted)
        throw new McpError('The call was cancelled.', 'MCP_CALL_CANCELLED', { cause: error });
      // Said already by the rounds of a 2026-07-28 call (MCP_CALL_INTERRUPTED and the like).
      if (isMcpError(error)) throw error;
      // A client whose connection closed has no transport left (its error is a plain "Not connected").
      const connected = client.transport !== undefined;
      throw callError(
        error,
        serverName,
        { idle: idled, limitMs, connected },
        await clientLibrary(),
      );
    } finally {
      context.signal.removeEventListener('abort', cancel);
      watch.stop();
      watches.delete(watch);
      calls.delete(call);
    }
  }

  /** A 2026-07-28 call's rounds are driven here when `answer` is given; a 2025 one's by the SDK. */
  function callTool(
    params: { name: string; arguments: Record<string, unknown> },
    requestOptions: RequestOptions,
    call: ElicitationCallContext,
    context: McpToolContext,
  ): Promise<CallToolResult> {
    const modern = client.getProtocolEra() === 'modern' && options.answer !== undefined;
    if (!modern && context.pending !== undefined)
      throw new McpError(
        `The call to the MCP server "${serverName}" stopped while it waited for your answer, and cannot go on: the server no longer speaks 2026-07-28. Check what it did before calling it again.`,
        'MCP_CALL_INTERRUPTED',
      );
    if (!modern) return client.callTool(params, requestOptions);
    const definition = definitions.get(params.name);
    return callToolInRounds(client, params, requestOptions, {
      serverName,
      toolName: params.name,
      answer: options.answer,
      call,
      ...(definition !== undefined && { definition }),
      ...(context.recordPending !== undefined && {
        recordPending: (state: string) => context.recordPending?.(state) ?? Promise.resolve(),
      }),
      ...(context.pending !== undefined && { pending: context.pending }),
    });
  }

  function agentTool(definition: Tool): McpAgentTool {
    const toolName = definition.name;
    const name = agentToolName(serverName, toolName);
    const live = () => definitions.get(toolName) ?? definition;
    const shown = () => live().title ?? live().annotations?.title ?? toolName;
    return {
      name,
      description: () =>
        `${live().description ?? shown()}\n\n(The tool "${toolName}" of the MCP server "${serverName}". ` +
        'Errors: MCP_TOOL_ERROR the tool reported a failure; MCP_SERVER_CLOSED the server is gone; ' +
        'MCP_SERVER_TIMEOUT the server stopped answering; MCP_CALL_FAILED it refused the call; ' +
        'MCP_TOOL_GONE it no longer offers this tool.)',
      get parameters() {
        return live().inputSchema;
      },
      title: () => `${shown()} (${serverName})`,
      describe: (args) => ({
        kind: 'other',
        title: clipped(`${serverName}: ${shown()} ${JSON.stringify(args ?? {})}`, 500),
      }),
      execute: (args, context) => execute(toolName, args, context),
    };
  }

  function update(list: readonly Tool[]): void {
    definitions.clear();
    infos.clear();
    const next: McpAgentTool[] = [];
    for (const definition of list) {
      if (definitions.has(definition.name)) continue;
      definitions.set(definition.name, definition);
      const tool = agentTool(definition);
      infos.set(tool.name, {
        serverName,
        toolName: definition.name,
        digest: toolDigest(definition),
        definition,
      });
      next.push(tool);
    }
    tools = next;
    options.onChange?.(tools);
  }

  return {
    serverName,
    get tools() {
      return tools;
    },
    async refresh() {
      const { tools: listed } = await client.listTools();
      update(listed);
      return tools;
    },
    update,
    info: (name) => infos.get(name),
    callContext: () => (calls.size === 1 ? [...calls][0] : undefined),
    waiting(waiting) {
      waitingNow = waiting;
      for (const watch of watches) watch.pause(waiting);
    },
  };
}
