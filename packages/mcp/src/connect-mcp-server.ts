import type { Client, Transport } from '@modelcontextprotocol/client';
import type { Agent } from 'dsh-user-interaction';
import { type ClientLibrary, clientLibrary, stdioClientLibrary } from './client-library.js';
import type { McpServerConfig } from './config/read-mcp-config.js';
import {
  type AnswerElicitationsOptions,
  answerElicitations,
  type ElicitationAnswering,
  type ElicitationInteraction,
} from './elicitation/answer-elicitations.js';
import { isMcpError, McpError } from './mcp-error.js';
import { createMcpToolSet, type McpToolSet } from './tools/mcp-tool-set.js';

/** How servers are connected. */
export interface ConnectMcpServerOptions {
  /** Answers the servers' elicitations; without it, the client declares no elicitation. */
  readonly interaction?: ElicitationInteraction;
  /** More options for the elicitation answers (review, attempts, openUrl, onRecord). */
  readonly elicitation?: Omit<
    AnswerElicitationsOptions,
    'serverName' | 'callContext' | 'onWaiting'
  >;
  /** Where a stdio server's stderr goes, line by line (prefixed with its name), and status lines. */
  readonly log?: (line: string) => void;
  /** How long a server may say nothing during a call (see `createMcpToolSet`). */
  readonly idleTimeoutMs?: number;
  /** How long connecting may take (default 30 s). */
  readonly connectTimeoutMs?: number;
  /** `auto` (default) probes for 2026-07-28 and falls back to the 2025 handshake; `legacy` skips the probe. */
  readonly era?: 'auto' | 'legacy';
  /** The agent a question is asked for when no single tool call is running (a session's agent). */
  readonly agent?: Agent;
  /** Told when a server's tools change (`tools/list_changed`). */
  readonly onToolsChange?: (set: McpToolSet) => void;
}

/** A connected server: its client, its tools; close it (or `await using`) to stop it. */
export interface McpServerConnection extends AsyncDisposable {
  readonly name: string;
  readonly client: Client;
  readonly tools: McpToolSet;
  /** Closes the connection; a stdio server's process is ended. Idempotent. */
  close(): Promise<void>;
}

const CLIENT_INFO = { name: 'dsh', version: '0.1.0' };

/** A log line from a server: control characters dropped, at most 1,000 characters. */
function inert(line: string): string {
  const clean = line.replace(/[\p{Cc}\p{Cf}]/gu, '');
  return clean.length <= 1000 ? clean : `${clean.slice(0, 999)}…`;
}

/**
 * Why connecting failed, for the person. The SDK's HTTP errors carry the status apart from a
 * message that may be empty ("Error POSTing to endpoint: "); a 401 or 403 is a server that wants
 * authorization, which dsh leaves to the configured `headers` (it runs no OAuth flow).
 */
function connectFailure(error: unknown, { SdkHttpError }: ClientLibrary): string {
  const message = error instanceof Error ? inert(error.message).slice(0, 300) : 'unknown failure';
  if (!(error instanceof SdkHttpError)) return message;
  const status = `HTTP ${error.status}${error.statusText ? ` ${inert(error.statusText).slice(0, 60)}` : ''}`;
  if (error.status === 401 || error.status === 403)
    return `${message} (${status}: the server asks for authorization; dsh runs no OAuth sign-in, so give it a token in the server's "headers")`;
  return message.includes(String(error.status)) ? message : `${message} (${status})`;
}

async function transportFor(
  config: McpServerConfig,
  log: ((line: string) => void) | undefined,
  { StreamableHTTPClientTransport }: ClientLibrary,
): Promise<Transport> {
  if (config.transport === 'http') {
    return new StreamableHTTPClientTransport(new URL(config.url), {
      requestInit: { headers: { ...config.headers } },
    });
  }
  const { getDefaultEnvironment, StdioClientTransport } = await stdioClientLibrary();
  const transport = new StdioClientTransport({
    command: config.command,
    args: [...config.args],
    // The few variables every child needs, and the configuration's: never the agent's own keys.
    env: { ...getDefaultEnvironment(), ...config.env },
    stderr: 'pipe',
    ...(config.cwd !== undefined && { cwd: config.cwd }),
  });
  let rest = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString('utf8')).split('\n');
    rest = lines.pop() ?? '';
    if (rest.length > 64_000) rest = rest.slice(0, 64_000);
    for (const line of lines) if (line.trim() !== '') log?.(`[${config.name}] ${inert(line)}`);
  });
  return transport;
}

/**
 * Starts or reaches one configured server, answers its elicitations through `interaction`, and
 * lists its tools. Fails with `MCP_CONNECT_FAILED` (the reason in the message) and leaves nothing
 * running.
 */
export async function connectMcpServer(
  config: McpServerConfig,
  options: ConnectMcpServerOptions = {},
): Promise<McpServerConnection> {
  const library = await clientLibrary();
  let tools: McpToolSet | undefined;
  const client = new library.Client(CLIENT_INFO, {
    versionNegotiation: {
      mode: options.era ?? 'auto',
      probe: { timeoutMs: Math.min(options.connectTimeoutMs ?? 30_000, 10_000) },
    },
    listChanged: {
      tools: {
        onChanged: (error, listed) => {
          if (error !== null || listed === null || tools === undefined) return;
          tools.update(listed);
          options.onToolsChange?.(tools);
        },
      },
    },
  });
  let answering: ElicitationAnswering | undefined;
  tools = createMcpToolSet(client, {
    serverName: config.name,
    ...(options.idleTimeoutMs !== undefined && { idleTimeoutMs: options.idleTimeoutMs }),
    // A 2026-07-28 server's questions are asked round by round here, each stored first, so
    // that one waiting when the program is killed is asked again by `--continue`.
    ...(options.interaction !== undefined && {
      answer: (params, signal, call) =>
        answering?.answer(params, signal, call) ?? Promise.resolve({ action: 'decline' }),
    }),
  });
  const set = tools;
  if (options.interaction !== undefined) {
    answering = answerElicitations(client, options.interaction, {
      ...options.elicitation,
      serverName: config.name,
      callContext: () => {
        const call = set.callContext();
        return call ?? (options.agent === undefined ? undefined : { agent: options.agent });
      },
      onWaiting: set.waiting,
    });
  }
  try {
    await client.connect(await transportFor(config, options.log, library), {
      timeout: options.connectTimeoutMs ?? 30_000,
    });
    await set.refresh();
  } catch (error) {
    await client.close().catch(() => {});
    if (isMcpError(error)) throw error;
    const why = connectFailure(error, library);
    throw new McpError(
      `The MCP server "${config.name}" did not connect: ${why}`,
      'MCP_CONNECT_FAILED',
      {
        cause: error,
      },
    );
  }
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= client.close().catch(() => {});
    return closing;
  };
  return { name: config.name, client, tools: set, close, [Symbol.asyncDispose]: close };
}

/** What connecting every configured server gave: the connections, and each failure with its reason. */
export interface McpServersStatus extends AsyncDisposable {
  readonly connections: readonly McpServerConnection[];
  readonly failures: readonly { readonly name: string; readonly error: McpError }[];
  /** One line per server for the person: which connected (with how many tools), which did not and why. */
  readonly lines: readonly string[];
  /** Closes every connection. */
  close(): Promise<void>;
}

/** Connects every configured server at once; one that fails is reported, never fatal to the others. */
export async function connectMcpServers(
  configs: readonly McpServerConfig[],
  options: ConnectMcpServerOptions = {},
): Promise<McpServersStatus> {
  const settled = await Promise.allSettled(
    configs.map((config) => connectMcpServer(config, options)),
  );
  const connections: McpServerConnection[] = [];
  const failures: { name: string; error: McpError }[] = [];
  const lines: string[] = [];
  settled.forEach((outcome, index) => {
    const name = configs[index]?.name ?? '';
    if (outcome.status === 'fulfilled') {
      connections.push(outcome.value);
      const count = outcome.value.tools.tools.length;
      lines.push(`MCP server ${name}: connected, ${count} tool${count === 1 ? '' : 's'}`);
    } else {
      const error = isMcpError(outcome.reason)
        ? outcome.reason
        : new McpError(`The MCP server "${name}" did not connect.`, 'MCP_CONNECT_FAILED');
      failures.push({ name, error });
      lines.push(`MCP server ${name}: not connected (${error.message})`);
    }
  });
  for (const line of lines) options.log?.(line);
  const close = async () => {
    await Promise.all(connections.map((connection) => connection.close()));
  };
  return { connections, failures, lines, close, [Symbol.asyncDispose]: close };
}
