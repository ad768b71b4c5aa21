import type { McpServer } from '@agentclientprotocol/sdk';
import type { AgentTool, PermissionPolicy } from 'dsh-agent';
import { asMcpRulesFile, connectMcpServers, type McpServerConfig, withMcpRules } from 'dsh-mcp';
import {
  createUserInteraction,
  type UserInteractionProvider,
  unsupportedError,
} from 'dsh-user-interaction';
import type { UrlQuestion, UrlQuestionAction } from '../questions/url-elicitation.js';
import { logText } from '../stdio/log-text.js';

/** What one MCP server of a session came to, for the `session/new` response's `_meta`. */
export interface McpServerOutcome {
  readonly name: string;
  readonly connected: boolean;
  /** How many tools it offers, when it connected. */
  readonly tools?: number;
  /** Why it did not connect. */
  readonly reason?: string;
}

/** The MCP servers of one ACP session. */
export interface SessionMcpServers {
  readonly tools: readonly AgentTool[];
  /** The session's policy with MCP rules in front (digest-pinned "always", annotations never trusted). */
  permissions(fallback: PermissionPolicy | undefined): PermissionPolicy;
  readonly outcomes: readonly McpServerOutcome[];
  /** A line for the person when a server did not connect; `undefined` when all did. */
  readonly notice: string | undefined;
  close(): Promise<void>;
}

const OUTCOME = { accept: 'answered', decline: 'declined', cancel: 'cancelled' } as const;

/** The `_meta` key of `session/new` and `session/load` responses that says which servers connected. */
export const MCP_SERVERS_META_KEY = 'dev.dsh/mcpServers';

function record(
  pairs: readonly { readonly name: string; readonly value: string }[],
): Record<string, string> {
  return Object.fromEntries(pairs.map((pair) => [pair.name, pair.value]));
}

/** The servers an editor gave, as `dsh-mcp` configurations; SSE (deprecated) is refused with the reason. */
export function mcpConfigsFrom(servers: readonly McpServer[]): {
  readonly configs: McpServerConfig[];
  readonly refused: McpServerOutcome[];
} {
  const configs: McpServerConfig[] = [];
  const refused: McpServerOutcome[] = [];
  for (const server of servers) {
    if ('type' in server && server.type === 'sse') {
      refused.push({
        name: server.name,
        connected: false,
        reason: 'SSE is not supported; use Streamable HTTP',
      });
    } else if ('type' in server && server.type === 'http') {
      configs.push({
        name: server.name,
        transport: 'http',
        url: server.url,
        headers: record(server.headers),
      });
    } else if ('command' in server) {
      configs.push({
        name: server.name,
        transport: 'stdio',
        command: server.command,
        args: server.args,
        env: record(server.env),
      });
    }
  }
  return { configs, refused };
}

/**
 * Connects a session's MCP servers. Their questions go to the editor as forms, scoped to the
 * session and the tool call that caused them; an editor without form elicitation gets no
 * question: the server is declined with the reason, never sent a permission request instead.
 * A URL-mode question goes as ACP URL elicitation (`askUrl`) only; an editor that did not
 * advertise it is not shown the address as a form: the server is declined with the reason.
 */
export async function connectSessionMcpServers(
  servers: readonly McpServer[],
  options: {
    readonly sessionId: string;
    readonly provider: UserInteractionProvider;
    readonly forms: boolean;
    /** Asks the editor to open a page (ACP URL elicitation); rejects `UNSUPPORTED` without it. */
    readonly askUrl: (question: UrlQuestion) => Promise<UrlQuestionAction>;
    readonly log: (line: string) => void;
    /** The servers whose `readOnlyHint` the person trusts (`mcpTrustReadOnly`). */
    readonly trustReadOnlyHint?: readonly string[];
    /** The time the person has for each of a server's questions, as for the agent's own. */
    readonly questionTimeoutMs?: number;
  },
): Promise<SessionMcpServers> {
  const { configs, refused } = mcpConfigsFrom(servers);
  const interaction = createUserInteraction();
  const registration = interaction.registerProvider(
    options.forms
      ? options.provider
      : {
          ask: () => Promise.reject(unsupportedError('this editor has no form elicitation')),
          askAll: () => Promise.reject(unsupportedError('this editor has no form elicitation')),
        },
  );
  const prefix = `session ${options.sessionId}: `;
  const status = await connectMcpServers(configs, {
    interaction,
    agent: { id: options.sessionId },
    log: (line) => options.log(prefix + logText(line)),
    // What a question came to, never what was typed: a 2026-07-28 server gets no reason with a
    // decline (the SDK sends only the action), so the log keeps it.
    elicitation: {
      ...(options.questionTimeoutMs !== undefined && { timeoutMs: options.questionTimeoutMs }),
      askUrl: ({ url, message, agent, signal }) =>
        options.askUrl({ url, message, signal, ...(agent !== undefined && { agent }) }),
      onRecord: (record) => {
        const why = record.reason === undefined ? '' : ` (${record.reason})`;
        options.log(
          `${prefix}MCP server ${logText(record.serverName)}: its question was ${OUTCOME[record.action]}${why}`,
        );
      },
    },
  });
  const outcomes: McpServerOutcome[] = [
    ...status.connections.map((connection) => ({
      name: connection.name,
      connected: true,
      tools: connection.tools.tools.length,
    })),
    ...status.failures.map(({ name, error }) => ({
      name,
      connected: false,
      reason: error.message,
    })),
    ...refused,
  ];
  for (const outcome of refused)
    options.log(`${prefix}MCP server ${logText(outcome.name)}: ${outcome.reason}`);
  const failed = outcomes.filter((outcome) => !outcome.connected);
  const sets = status.connections.map((connection) => connection.tools);
  return {
    tools: sets.flatMap((set) => set.tools),
    permissions: (fallback) => {
      // "Always" for an MCP tool goes to the workspace's rules file (a dsh-tools policy's), as
      // for the workspace tools, and is read back by the next session.
      const rulesFile = asMcpRulesFile(fallback);
      return withMcpRules({
        toolSets: () => sets,
        ...(fallback !== undefined && { fallback }),
        ...(rulesFile !== undefined && { rulesFile }),
        ...(options.trustReadOnlyHint !== undefined && {
          trustReadOnlyHint: options.trustReadOnlyHint,
        }),
      });
    },
    outcomes,
    notice:
      failed.length === 0
        ? undefined
        : failed
            .map((outcome) => `MCP server ${outcome.name} did not connect: ${outcome.reason}`)
            .join('\n'),
    close: async () => {
      await status.close();
      registration();
    },
  };
}
