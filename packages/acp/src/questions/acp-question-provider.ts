import { randomUUID } from 'node:crypto';
import {
  type AgentContext,
  type ClientCapabilities,
  methods,
  type SendRequestOptions,
} from '@agentclientprotocol/sdk';
import {
  type AskUserQuestionAnswer,
  type AskUserQuestionRequest,
  hasOptions,
  type UserInteractionCapabilities,
  UserInteractionError,
  type UserInteractionProvider,
} from 'dsh-user-interaction';
import { answerFromElicitation } from './answer-from-elicitation.js';
import { answerFromPermission } from './answer-from-permission.js';
import { errorFromClient } from './client-error.js';
import { elicitationForQuestion } from './elicitation-for-question.js';
import { permissionRequestForQuestion } from './permission-request-for-question.js';
import { checkScope, type QuestionScope } from './question-scope.js';
import { questionCapabilitiesFor, supportsFormElicitation } from './supports-form-elicitation.js';

/**
 * The agent side of one ACP connection, as the SDK's `AgentConnection` has it (from
 * `agent().onConnect(...)` or `agent().connect(...)`).
 */
export interface AcpClientConnection {
  /** Sends requests to the client. */
  readonly client: Pick<AgentContext, 'request'>;
  /** Aborts when the connection closes. */
  readonly signal: AbortSignal;
}

/** What the client advertised at `initialize`, or a getter for it. */
export type ClientCapabilitiesSource =
  | ClientCapabilities
  | null
  | undefined
  | (() => ClientCapabilities | null | undefined);

/** Options of `createAcpQuestionProvider`. */
export interface AcpQuestionProviderOptions {
  /** The connection to the client that shows the questions. */
  readonly connection: AcpClientConnection;
  /** The client's capabilities from `initialize`; read at every ask when it is a getter. */
  readonly clientCapabilities: ClientCapabilitiesSource;
  /** The session (and tool call) of an ask, or `undefined` when none is known: the ask fails with `ASK_FAILED`. */
  readonly scopeFor: (request: AskUserQuestionRequest) => QuestionScope | undefined;
}

/** A question UI bound to one ACP connection. Disposing it rejects pending asks with `INPUT_CLOSED`. */
export interface AcpQuestionProvider extends UserInteractionProvider, Disposable {
  /** What the client can show: free-form and custom answers only with form elicitation. */
  readonly capabilities: UserInteractionCapabilities;
  /** Questions sent and not yet settled. */
  readonly pending: number;
  /** Withdraws pending questions (on the wire too) and rejects them and later asks with `INPUT_CLOSED`. Idempotent. */
  dispose(): void;
}

interface PendingAsk {
  /** Settles the ask with `error`; with `withdraw`, also cancels its request on the wire. */
  fail(error: UserInteractionError, withdraw: boolean): void;
}

type SendQuestion = (options: SendRequestOptions) => Promise<unknown>;

interface OutgoingQuestion {
  readonly send: SendQuestion;
  readonly answerFrom: (reply: unknown) => AskUserQuestionAnswer;
}

function aborted(signal: AbortSignal): UserInteractionError {
  return new UserInteractionError(
    'ASK_ABORTED',
    'The question was withdrawn before the person answered.',
    { cause: signal.reason },
  );
}

function inputClosed(reason: 'closed' | 'disposed', cause?: unknown): UserInteractionError {
  const message =
    reason === 'closed'
      ? 'The editor connection closed; nobody can answer the question.'
      : 'The editor question UI was shut down; nobody can answer the question.';
  return new UserInteractionError('INPUT_CLOSED', message, { cause });
}

/**
 * Creates the question UI of one ACP connection: a form (`elicitation/create`) for a client
 * that advertised form elicitation, else `session/request_permission` for a question with
 * options, else `UNSUPPORTED`.
 */
export function createAcpQuestionProvider(
  options: AcpQuestionProviderOptions,
): AcpQuestionProvider {
  const { connection, clientCapabilities, scopeFor } = options;
  const readCapabilities =
    typeof clientCapabilities === 'function' ? clientCapabilities : () => clientCapabilities;
  const pendingAsks = new Set<PendingAsk>();
  let disposed = false;

  const onClose = (): void => {
    for (const ask of [...pendingAsks])
      ask.fail(inputClosed('closed', connection.signal.reason), false);
  };
  connection.signal.addEventListener('abort', onClose, { once: true });

  function closedError(): UserInteractionError | undefined {
    if (connection.signal.aborted) return inputClosed('closed', connection.signal.reason);
    if (disposed) return inputClosed('disposed');
    return undefined;
  }

  function outgoing(request: AskUserQuestionRequest): OutgoingQuestion {
    let scope: QuestionScope;
    try {
      scope = checkScope(scopeFor(request));
    } catch (error) {
      if (error instanceof UserInteractionError) throw error;
      throw new UserInteractionError('ASK_FAILED', 'The question could not be routed.', {
        cause: error,
      });
    }
    const { client } = connection;
    if (supportsFormElicitation(readCapabilities())) {
      const params = elicitationForQuestion(request, scope);
      return {
        send: (sendOptions) =>
          client.request(methods.client.elicitation.create, params, sendOptions),
        answerFrom: (reply) => answerFromElicitation(request, reply),
      };
    }
    if (!hasOptions(request)) {
      throw new UserInteractionError(
        'UNSUPPORTED',
        'This editor cannot show a question without options (it has no form elicitation); offer options to choose from.',
      );
    }
    // A permission request must name a tool call; clients show an unknown one as a new entry.
    const toolCallId = scope.toolCallId ?? `question-${randomUUID()}`;
    const params = permissionRequestForQuestion(request, {
      sessionId: scope.sessionId,
      toolCallId,
    });
    return {
      send: (sendOptions) =>
        client.request(methods.client.session.requestPermission, params, sendOptions),
      answerFrom: (reply) => answerFromPermission(request, reply),
    };
  }

  function send(question: OutgoingQuestion, signal: AbortSignal | undefined) {
    return new Promise<AskUserQuestionAnswer>((resolve, reject) => {
      // Aborting it sends `$/cancel_request`; the SDK then drops the client's late reply.
      const wire = new AbortController();
      let settled = false;
      const settle = (): boolean => {
        if (settled) return false;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        pendingAsks.delete(ask);
        return true;
      };
      const ask: PendingAsk = {
        fail(error, withdraw) {
          if (!settle()) return;
          if (withdraw) wire.abort(error);
          reject(error);
        },
      };
      function onAbort(): void {
        ask.fail(aborted(signal as AbortSignal), true);
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      pendingAsks.add(ask);
      let reply: Promise<unknown>;
      try {
        reply = question.send({ cancellationSignal: wire.signal, stopWaitingOnCancel: true });
      } catch (error) {
        reply = Promise.reject(error);
      }
      reply.then(
        (value) => {
          if (!settle()) return;
          try {
            resolve(question.answerFrom(value));
          } catch (error) {
            reject(error);
          }
        },
        (error: unknown) => {
          if (!settle()) return;
          reject(closedError() ?? errorFromClient(error));
        },
      );
    });
  }

  function ask(request: AskUserQuestionRequest): Promise<AskUserQuestionAnswer> {
    const { signal } = request;
    if (signal?.aborted) return Promise.reject(aborted(signal));
    const closed = closedError();
    if (closed !== undefined) return Promise.reject(closed);
    let question: OutgoingQuestion;
    try {
      question = outgoing(request);
    } catch (error) {
      return Promise.reject(error);
    }
    return send(question, signal);
  }

  function dispose(): void {
    if (disposed) return;
    disposed = true;
    connection.signal.removeEventListener('abort', onClose);
    for (const pending of [...pendingAsks]) pending.fail(inputClosed('disposed'), true);
  }

  return {
    ask,
    get capabilities() {
      return questionCapabilitiesFor(readCapabilities());
    },
    get pending() {
      return pendingAsks.size;
    },
    dispose,
    [Symbol.dispose]: dispose,
  };
}
