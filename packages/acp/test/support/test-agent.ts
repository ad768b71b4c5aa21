import {
  type AgentApp,
  type AgentConnection,
  agent,
  type ClientCapabilities,
  methods,
  PROTOCOL_VERSION,
} from '@agentclientprotocol/sdk';
import {
  type AskUserQuestionAnswer,
  type AskUserQuestionRequest,
  createUserInteraction,
  isUserInteractionError,
} from 'dsh-user-interaction';
import {
  type AcpQuestionProvider,
  createAcpQuestionProvider,
  type QuestionScope,
} from '../../src/index.js';
import { AsyncQueue } from '../../src/testing.js';

/** What a prompt asks the test agent to do, sent as the prompt's JSON text. */
export interface TurnScript {
  /** The question, without `agent` and `signal` (the agent adds its own). */
  readonly question: Omit<AskUserQuestionRequest, 'agent' | 'signal'>;
  /** Announce a tool call and scope the question to it. Default true. */
  readonly toolCall?: boolean;
  /** Know the session of the asking agent. Default true; false makes `scopeFor` return undefined. */
  readonly routed?: boolean;
  /** Ask through the contract's service (`createUserInteraction`) instead of the provider directly. */
  readonly viaService?: boolean;
}

/** How one ask ended, as the agent saw it. */
export type AskOutcome =
  | { readonly sessionId: string; readonly answer: AskUserQuestionAnswer }
  | { readonly sessionId: string; readonly error: unknown };

/** A small ACP agent whose prompt turns each ask one question through the provider. */
export interface TestAgent {
  readonly app: AgentApp;
  /** Every ask's outcome, in the order they settled. */
  readonly outcomes: AsyncQueue<AskOutcome>;
  /** The provider of the latest connection. */
  provider(): AcpQuestionProvider;
  /** The latest connection, as the agent side holds it. */
  connection(): AgentConnection;
  /** Scopes by the asking agent's id; tests may add their own. */
  readonly scopes: Map<string, QuestionScope>;
  /** Waits for the next outcome of a session. */
  outcomeOf(sessionId: string): Promise<AskOutcome>;
}

/** Options of `createTestAgent`. */
export interface TestAgentOptions {
  /** The provider's `questionsAsPermissions` (default false, as the provider's). */
  readonly questionsAsPermissions?: boolean;
}

export function createTestAgent({
  questionsAsPermissions = false,
}: TestAgentOptions = {}): TestAgent {
  const outcomes = new AsyncQueue<AskOutcome>();
  const scopes = new Map<string, QuestionScope>();
  const turns = new Map<string, AbortController>();
  let clientCapabilities: ClientCapabilities | undefined;
  let latest: { provider: AcpQuestionProvider; connection: AgentConnection } | undefined;
  let sessionCount = 0;
  let toolCallCount = 0;
  const bySession = new Map<string, AsyncQueue<AskOutcome>>();
  const queueOf = (sessionId: string) => {
    let queue = bySession.get(sessionId);
    if (queue === undefined) {
      queue = new AsyncQueue<AskOutcome>();
      bySession.set(sessionId, queue);
    }
    return queue;
  };
  const record = (outcome: AskOutcome) => {
    outcomes.push(outcome);
    queueOf(outcome.sessionId).push(outcome);
  };

  const app = agent({ name: 'dsh-acp-test-agent' })
    .onConnect((connection) => {
      const provider = createAcpQuestionProvider({
        connection,
        clientCapabilities: () => clientCapabilities,
        scopeFor: (request) => scopes.get(request.agent?.id ?? ''),
        questionsAsPermissions,
      });
      connection.closed.then(() => provider.dispose());
      latest = { provider, connection };
    })
    .onRequest(methods.agent.initialize, ({ params }) => {
      clientCapabilities = params.clientCapabilities;
      return { protocolVersion: PROTOCOL_VERSION, agentCapabilities: {} };
    })
    .onRequest(methods.agent.session.new, () => {
      sessionCount += 1;
      return { sessionId: `session-${sessionCount}` };
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      turns.get(params.sessionId)?.abort(new Error('session/cancel'));
    })
    .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
      const { sessionId } = params;
      const block = params.prompt[0];
      const script = JSON.parse(block?.type === 'text' ? block.text : '{}') as TurnScript;
      const turn = new AbortController();
      turns.set(sessionId, turn);
      const agentId = `agent-of-${sessionId}`;
      let toolCallId: string | undefined;
      if (script.toolCall !== false) {
        toolCallCount += 1;
        toolCallId = `call-${toolCallCount}`;
        await client.notify(methods.client.session.update, {
          sessionId,
          update: {
            sessionUpdate: 'tool_call',
            toolCallId,
            title: script.question.question,
            kind: 'other',
            status: 'pending',
          },
        });
      }
      if (script.routed !== false) scopes.set(agentId, { sessionId, toolCallId });
      const request: AskUserQuestionRequest = {
        ...script.question,
        agent: { id: agentId },
        signal: turn.signal,
      };
      const provider = latest?.provider;
      if (provider === undefined) throw new Error('no provider');
      let text: string;
      try {
        const answer = await (script.viaService
          ? askViaService(provider, request)
          : provider.ask(request));
        record({ sessionId, answer });
        text = `answer:${answer.answer}`;
      } catch (error) {
        record({ sessionId, error });
        text = `error:${isUserInteractionError(error) ? error.code : String(error)}`;
      } finally {
        turns.delete(sessionId);
      }
      if (turn.signal.aborted) return { stopReason: 'cancelled' };
      await client.notify(methods.client.session.update, {
        sessionId,
        update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
      });
      return { stopReason: 'end_turn' };
    });

  return {
    app,
    outcomes,
    scopes,
    provider() {
      if (latest === undefined) throw new Error('not connected');
      return latest.provider;
    },
    connection() {
      if (latest === undefined) throw new Error('not connected');
      return latest.connection;
    },
    outcomeOf: (sessionId) => queueOf(sessionId).next(),
  };
}

async function askViaService(
  provider: AcpQuestionProvider,
  request: AskUserQuestionRequest,
): Promise<AskUserQuestionAnswer> {
  const interaction = createUserInteraction();
  using _registration = interaction.registerProvider(provider);
  return await interaction.ask(request);
}
