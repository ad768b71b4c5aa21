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
  askFailedError,
  hasOptions,
  inputClosedError,
  isUserInteractionError,
  type PendingQuestion,
  PendingQuestions,
  type UserInteractionCapabilities,
  type UserInteractionProvider,
  unsupportedError,
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

type SendQuestion = (options: SendRequestOptions) => Promise<unknown>;

interface OutgoingQuestion {
  readonly send: SendQuestion;
  readonly answerFrom: (reply: unknown) => AskUserQuestionAnswer;
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
  const questions = new PendingQuestions<AskUserQuestionAnswer>();

  const onClose = (): void => {
    questions.close(inputClosedError('the editor connection closed', connection.signal.reason));
  };
  if (connection.signal.aborted) onClose();
  else connection.signal.addEventListener('abort', onClose, { once: true });

  function outgoing(request: AskUserQuestionRequest): OutgoingQuestion {
    let scope: QuestionScope;
    try {
      scope = checkScope(scopeFor(request));
    } catch (error) {
      if (isUserInteractionError(error)) throw error;
      throw askFailedError(error, 'the question could not be routed');
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
      throw unsupportedError(
        'it has no options, and this editor shows only choices (it has no form elicitation); offer options to choose from',
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

  /** Sends the question; withdrawing it sends `$/cancel_request`, unless the connection is gone. */
  function send(
    outgoing: OutgoingQuestion,
    question: PendingQuestion<AskUserQuestionAnswer>,
  ): void {
    // The SDK drops the client's late reply once this aborts.
    const wire = new AbortController();
    question.signal.addEventListener(
      'abort',
      () => {
        if (!connection.signal.aborted) wire.abort(question.signal.reason);
      },
      { once: true },
    );
    let reply: Promise<unknown>;
    try {
      reply = outgoing.send({ cancellationSignal: wire.signal, stopWaitingOnCancel: true });
    } catch (error) {
      reply = Promise.reject(error);
    }
    reply.then(
      (value) => {
        try {
          question.resolve(outgoing.answerFrom(value));
        } catch (error) {
          question.reject(error);
        }
      },
      (error: unknown) => question.reject(errorFromClient(error)),
    );
  }

  function ask(request: AskUserQuestionRequest): Promise<AskUserQuestionAnswer> {
    const { signal } = request;
    const question = questions.open(signal === undefined ? {} : { signal });
    if (question.settled) return question.promise;
    try {
      send(outgoing(request), question);
    } catch (error) {
      question.reject(error);
    }
    return question.promise;
  }

  let disposed = false;
  function dispose(): void {
    if (disposed) return;
    disposed = true;
    connection.signal.removeEventListener('abort', onClose);
    questions.close(inputClosedError('the editor question UI was shut down'));
  }

  return {
    ask,
    get capabilities() {
      return questionCapabilitiesFor(readCapabilities());
    },
    get pending() {
      return questions.size;
    },
    dispose,
    [Symbol.dispose]: dispose,
  };
}
