import type {
  CallToolResult,
  Client,
  ElicitRequest,
  ElicitResult,
  RequestOptions,
  Tool,
} from '@modelcontextprotocol/client';
import { type ClientLibrary, clientLibrary } from '../client-library.js';
import type { ElicitationCallContext } from '../elicitation/answer-elicitations.js';
import { McpError } from '../mcp-error.js';

/**
 * Answers one elicitation as `answerElicitations` does (`ElicitationAnswering.answer`), for the
 * call `call` it belongs to.
 */
export type AnswerElicitation = (
  params: ElicitRequest['params'],
  signal: AbortSignal,
  call?: ElicitationCallContext,
) => Promise<ElicitResult>;

/** What a 2026-07-28 call that waits for the person keeps, to go on after a stop. */
interface PendingRound {
  readonly v: 1;
  readonly server: string;
  readonly tool: string;
  /** The server's questions of this round, as it sent them (no answer of the person's). */
  readonly inputRequests: Readonly<Record<string, unknown>>;
  /** The server's opaque state, echoed byte for byte with the answers. */
  readonly requestState?: string;
}

/** How one call's rounds go. */
export interface InputRounds {
  readonly serverName: string;
  readonly toolName: string;
  /** The tool as the server listed it. */
  readonly definition?: Tool;
  readonly answer: AnswerElicitation | undefined;
  readonly call: ElicitationCallContext;
  /** Stores a round durably before its questions are asked (the agent's `recordPending`). */
  readonly recordPending?: (state: string) => Promise<void>;
  /** The round stored before the program stopped: the call goes on from it. */
  readonly pending?: string;
}

/** Rounds the SDK's own driver allows by default (`inputRequired.maxRounds`). */
const MAX_ROUNDS = 10;

function interrupted(serverName: string, why: string): McpError {
  return new McpError(
    `The call to the MCP server "${serverName}" stopped while it waited for your answer, and cannot go on: ${why}. Check what it did before calling it again.`,
    'MCP_CALL_INTERRUPTED',
  );
}

/** The round stored with the question, checked: it must be this server's and this tool's. */
function readPending(text: string, rounds: InputRounds): PendingRound {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw interrupted(rounds.serverName, 'what was saved of it is not JSON');
  }
  const round = value as Partial<PendingRound> | null;
  const requests = round?.inputRequests;
  if (
    round?.v !== 1 ||
    round.server !== rounds.serverName ||
    round.tool !== rounds.toolName ||
    typeof requests !== 'object' ||
    requests === null ||
    Array.isArray(requests) ||
    (round.requestState !== undefined && typeof round.requestState !== 'string')
  ) {
    throw interrupted(rounds.serverName, 'what was saved of it is not a question of this tool');
  }
  return round as PendingRound;
}

/**
 * An elicitation's params as a 2026-07-28 server sends them. The SDK's `isSpecType` checks the
 * 2025-11-25 shape, whose URL mode requires `elicitationId`; 2026-07-28 dropped it with the
 * completion notification (modelcontextprotocol/modelcontextprotocol
 * `docs/specification/2026-07-28/changelog.mdx`), and the SDK's `inputRequired.elicitUrl` sends
 * none. A URL request without one is checked as that shape with a placeholder id.
 */
function isElicitationParams(params: unknown, { isSpecType }: ClientLibrary): boolean {
  if (isSpecType.ElicitRequestParams(params)) return true;
  if (typeof params !== 'object' || params === null || 'elicitationId' in params) return false;
  return isSpecType.ElicitRequestURLParams({ ...params, elicitationId: '' });
}

/** Asks the person each of the round's questions, one after the other. */
async function answerRound(
  requests: Readonly<Record<string, unknown>>,
  rounds: InputRounds,
  signal: AbortSignal,
  library: ClientLibrary,
): Promise<Record<string, ElicitResult>> {
  const responses: Record<string, ElicitResult> = {};
  for (const [key, request] of Object.entries(requests)) {
    const entry = request as { method?: unknown; params?: unknown } | null;
    // Only elicitation is declared: a server asking for sampling or roots breaks the protocol.
    if (entry?.method !== 'elicitation/create' || !isElicitationParams(entry.params, library))
      throw new McpError(
        `The MCP server "${rounds.serverName}" asked for input dsh does not give (${String(entry?.method).slice(0, 60)}).`,
        'MCP_CALL_FAILED',
      );
    if (rounds.answer === undefined) {
      responses[key] = { action: 'decline' };
      continue;
    }
    responses[key] = await rounds.answer(
      entry.params as ElicitRequest['params'],
      signal,
      rounds.call,
    );
  }
  return responses;
}

/**
 * Calls a tool on a 2026-07-28 connection with the multi-round-trip driven here, not by the SDK
 * (`allowInputRequired: true`, the manual mode of `@modelcontextprotocol/client` 2.x: see its
 * docs/clients/server-requests.md "Cap or disable automatic fulfilment" and
 * docs/servers/input-required.md). Each `input_required` round is stored first
 * (`recordPending`: server, tool, the server's questions and its `requestState`, never an
 * answer), then asked through the seam, then the call is sent again, with a new request id, the
 * answers and the `requestState` echoed. With `pending`, the call goes on from the round stored
 * before a stop: asked again, then retried, so its result reaches the conversation as usual.
 */
export async function callToolInRounds(
  client: Client,
  params: { readonly name: string; readonly arguments: Record<string, unknown> },
  options: RequestOptions,
  rounds: InputRounds,
): Promise<CallToolResult> {
  const library = await clientLibrary();
  const signal = options.signal ?? new AbortController().signal;
  // The SDK checks a tool's outputSchema on every answer, an `input_required` round too, which
  // has no structured content (`callTool` in @modelcontextprotocol/client 2.4.0): the call is
  // given the tool's definition without it (its input schema still drives SEP-2243 headers).
  const { outputSchema: _unchecked, ...definition } = rounds.definition ?? {
    name: params.name,
    inputSchema: { type: 'object' as const },
  };
  const send = async (extra: object): Promise<unknown> =>
    client.callTool({ ...params, ...extra } as Parameters<Client['callTool']>[0], {
      ...options,
      allowInputRequired: true,
      toolDefinition: definition,
    });
  let result: unknown;
  let round: PendingRound | undefined;
  if (rounds.pending !== undefined) round = readPending(rounds.pending, rounds);
  else result = await send({});
  for (let count = 0; ; count++) {
    if (round === undefined) {
      if (!library.isInputRequiredResult(result)) return result as CallToolResult;
      round = {
        v: 1,
        server: rounds.serverName,
        tool: rounds.toolName,
        inputRequests: result.inputRequests ?? {},
        ...(result.requestState !== undefined && { requestState: result.requestState }),
      };
      if (count >= MAX_ROUNDS)
        throw new McpError(
          `The MCP server "${rounds.serverName}" still asked after ${MAX_ROUNDS} rounds; the call was given up.`,
          'MCP_CALL_FAILED',
        );
      // Stored before the person sees it: a kill while it waits loses neither question nor state.
      await rounds.recordPending?.(JSON.stringify(round));
    }
    const inputResponses = await answerRound(round.inputRequests, rounds, signal, library);
    if (signal.aborted) throw new McpError('The call was cancelled.', 'MCP_CALL_CANCELLED');
    result = await send({
      ...(Object.keys(inputResponses).length > 0 && { inputResponses }),
      ...(round.requestState !== undefined && { requestState: round.requestState }),
    });
    round = undefined;
  }
}
