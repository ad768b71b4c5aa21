import { randomUUID } from 'node:crypto';
import { type AgentContext, type ClientCapabilities, methods } from '@agentclientprotocol/sdk';
import {
  type AskUserQuestionAnswer,
  type AskUserQuestionRequest,
  type AskUserQuestionsAnswer,
  type AskUserQuestionsRequest,
  askFailedError,
  inputClosedError,
  isUserInteractionError,
  type PendingQuestion,
  PendingQuestions,
  type PermissionAnswer,
  type PermissionRequest,
  type RefusalWording,
  refusalFor,
  type UserInteractionCapabilities,
  type UserInteractionProvider,
  unsupportedError,
} from 'dsh-user-interaction';
import { choiceFromPermissionReply } from '../permissions/permission-options.js';
import { permissionRequestParams } from '../permissions/permission-request-params.js';
import { answerFromElicitation } from './answer-from-elicitation.js';
import { answerFromPermission } from './answer-from-permission.js';
import { answersFromElicitation } from './answers-from-elicitation.js';
import { errorFromClient } from './client-error.js';
import { elicitationForQuestion } from './elicitation-for-question.js';
import { elicitationForQuestions } from './elicitation-for-questions.js';
import { checkOutgoingRequestSize } from './outgoing-request-size.js';
import { permissionQuestionsInTurn } from './permission-questions-in-turn.js';
import { permissionRequestForQuestion } from './permission-request-for-question.js';
import { checkScope, type QuestionScope } from './question-scope.js';
import type { SendQuestion, SendWithdrawable } from './send-withdrawable.js';
import { questionCapabilitiesFor, supportsFormElicitation } from './supports-form-elicitation.js';
import {
  actionFromUrlReply,
  supportsUrlElicitation,
  type UrlQuestion,
  type UrlQuestionAction,
  urlElicitationParams,
} from './url-elicitation.js';

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
  /**
   * The session and tool call of an approval (`session/request_permission`), or `undefined`
   * when none is known: the call is denied (`ASK_FAILED`). Without it, the provider takes no
   * approvals (`capabilities.permissions` is false).
   */
  readonly permissionScopeFor?: (request: PermissionRequest) => QuestionScope | undefined;
  /**
   * For a client without form elicitation, asks questions with one choice as permission
   * requests (default: false: every question fails with `UNSUPPORTED`, and the model is told
   * to ask in its reply). Only for clients known to show those requests to a person: a client
   * that answers permission requests by itself (acpx `--approve-all` picks the first option)
   * would send the model an answer nobody gave.
   */
  readonly questionsAsPermissions?: boolean;
}

/** A question UI bound to one ACP connection. Disposing it rejects pending asks with `INPUT_CLOSED`. */
export interface AcpQuestionProvider extends UserInteractionProvider, Disposable {
  /**
   * Shows several questions as one form (`elicitation/create`); without form elicitation, asks
   * questions with one choice as permission requests, one after another.
   */
  askAll(request: AskUserQuestionsRequest): Promise<AskUserQuestionsAnswer>;
  /**
   * Asks the person to approve a tool call with `session/request_permission`, on the tool call
   * the editor already shows; resolves with the choice of the option they selected.
   */
  requestPermission(request: PermissionRequest): Promise<PermissionAnswer>;
  /**
   * Asks the person to open a page (`elicitation/create` in URL mode, scoped to the session and
   * tool call); `UNSUPPORTED` when the client did not advertise URL elicitation.
   */
  askUrl(question: UrlQuestion): Promise<UrlQuestionAction>;
  /**
   * What the client can show: questions of every kind with form elicitation, none without
   * (or only one choice at a time with `questionsAsPermissions`); approvals once a client has
   * connected, when `permissionScopeFor` is given.
   */
  readonly capabilities: UserInteractionCapabilities;
  /** Questions sent and not yet settled. */
  readonly pending: number;
  /** Withdraws pending questions (on the wire too) and rejects them and later asks with `INPUT_CLOSED`. Idempotent. */
  dispose(): void;
}

interface OutgoingQuestion<Answer> {
  /** Sends what shows the question, and resolves with the answer read from the reply. */
  readonly show: (sendWithdrawable: SendWithdrawable) => Promise<Answer>;
}

/** How a refusal names a client without forms: the contract's rules, in an editor's words. */
const EDITOR: RefusalWording = { ui: 'this editor', because: 'it has no form elicitation' };

/**
 * Creates the question UI of one ACP connection: a form (`elicitation/create`) for a client
 * that advertised form elicitation, else `UNSUPPORTED` (or, with `questionsAsPermissions`,
 * `session/request_permission` for a question with options); approvals as
 * `session/request_permission`.
 */
export function createAcpQuestionProvider(
  options: AcpQuestionProviderOptions,
): AcpQuestionProvider {
  const { connection, clientCapabilities, scopeFor, permissionScopeFor } = options;
  const questionsAsPermissions = options.questionsAsPermissions === true;
  const readCapabilities =
    typeof clientCapabilities === 'function' ? clientCapabilities : () => clientCapabilities;
  const questions = new PendingQuestions<unknown>();

  const onClose = (): void => {
    questions.close(inputClosedError('the editor connection closed', connection.signal.reason));
  };
  if (connection.signal.aborted) onClose();
  else connection.signal.addEventListener('abort', onClose, { once: true });

  function routed(request: Pick<AskUserQuestionRequest, 'agent'>): QuestionScope {
    try {
      return checkScope(scopeFor(request as AskUserQuestionRequest));
    } catch (error) {
      if (isUserInteractionError(error)) throw error;
      throw askFailedError(error, 'the question could not be routed');
    }
  }

  function outgoing(request: AskUserQuestionRequest): OutgoingQuestion<AskUserQuestionAnswer> {
    const scope = routed(request);
    const { client } = connection;
    const capabilities = readCapabilities();
    const forms = supportsFormElicitation(capabilities);
    const refused = refusalFor(
      questionCapabilitiesFor(capabilities, { questionsAsPermissions }),
      request,
      EDITOR,
    );
    if (refused !== undefined) throw refused;
    if (forms) {
      const params = elicitationForQuestion(request, scope);
      checkOutgoingRequestSize(
        methods.client.elicitation.create,
        params,
        'options',
        'a form',
        'offer fewer options, or shorter labels, values and descriptions',
      );
      return {
        show: async (send) =>
          answerFromElicitation(
            request,
            await send((options) =>
              client.request(methods.client.elicitation.create, params, options),
            ),
          ),
      };
    }
    // A permission request must name a tool call; clients show an unknown one as a new entry.
    const toolCallId = scope.toolCallId ?? `question-${randomUUID()}`;
    const params = permissionRequestForQuestion(request, {
      sessionId: scope.sessionId,
      toolCallId,
    });
    checkOutgoingRequestSize(
      methods.client.session.requestPermission,
      params,
      'options',
      'a permission request',
      'offer fewer options, or shorter labels',
    );
    return {
      show: async (send) =>
        answerFromPermission(
          request,
          await send((options) =>
            client.request(methods.client.session.requestPermission, params, options),
          ),
        ),
    };
  }

  function outgoingAll(request: AskUserQuestionsRequest): OutgoingQuestion<AskUserQuestionsAnswer> {
    const scope = routed(request);
    const { client } = connection;
    const capabilities = readCapabilities();
    const forms = supportsFormElicitation(capabilities);
    const shown = questionCapabilitiesFor(capabilities, { questionsAsPermissions });
    // Without forms the questions are permission requests, one choice at a time.
    const refused = refusalFor(forms ? shown : { ...shown, multiSelect: false }, request, EDITOR);
    if (refused !== undefined) throw refused;
    if (forms) {
      const params = elicitationForQuestions(request, scope);
      checkOutgoingRequestSize(
        methods.client.elicitation.create,
        params,
        'questions',
        'a form',
        'ask fewer questions at once, or offer fewer options, or shorter labels, values and descriptions',
      );
      return {
        show: async (send) =>
          answersFromElicitation(
            request,
            await send((options) =>
              client.request(methods.client.elicitation.create, params, options),
            ),
          ),
      };
    }
    return permissionQuestionsInTurn(request, scope, (params, options) =>
      client.request(methods.client.session.requestPermission, params, options),
    );
  }

  function outgoingApproval(request: PermissionRequest): OutgoingQuestion<PermissionAnswer> {
    if (permissionScopeFor === undefined) {
      throw unsupportedError('this editor connection takes no approvals');
    }
    let scope: QuestionScope;
    try {
      scope = checkScope(permissionScopeFor(request));
    } catch (error) {
      if (isUserInteractionError(error)) throw error;
      throw askFailedError(error, 'the approval could not be routed');
    }
    const params = permissionRequestParams(request, {
      sessionId: scope.sessionId,
      toolCallId: scope.toolCallId ?? request.toolCallId,
    });
    // The change was cut to fit; what cannot be cut (a title of megabytes) is refused, never sent.
    checkOutgoingRequestSize(
      methods.client.session.requestPermission,
      params,
      'title',
      'a permission request',
      'the call is denied',
    );
    const { client } = connection;
    return {
      show: async (send) =>
        choiceFromPermissionReply(
          request,
          await send((options) =>
            client.request(methods.client.session.requestPermission, params, options),
          ),
        ),
    };
  }

  function outgoingUrl(question: UrlQuestion): OutgoingQuestion<UrlQuestionAction> {
    // Only to a client that said it shows URL elicitation; never as a form or a permission request.
    if (!supportsUrlElicitation(readCapabilities()))
      throw unsupportedError('this editor has no URL elicitation');
    const params = urlElicitationParams(question, routed(question));
    checkOutgoingRequestSize(
      methods.client.elicitation.create,
      params,
      'url',
      'a URL elicitation',
      'the page is not offered',
    );
    const { client } = connection;
    return {
      show: async (send) =>
        actionFromUrlReply(
          await send((options) =>
            client.request(methods.client.elicitation.create, params, options),
          ),
        ),
    };
  }

  /**
   * Sends one request of the question and waits for the client's reply; withdrawing the
   * question sends `$/cancel_request`, unless the connection is gone. A JSON-RPC error reply
   * becomes the matching `UserInteractionError`.
   */
  function sendWithdrawable(
    question: PendingQuestion<unknown>,
    send: SendQuestion,
  ): Promise<unknown> {
    // Nothing more is sent for a question that has already ended (withdrawn between two requests).
    if (question.settled) return Promise.reject(question.signal.reason);
    // The SDK drops the client's late reply once this aborts.
    const wire = new AbortController();
    const onWithdrawn = (): void => {
      if (!connection.signal.aborted) wire.abort(question.signal.reason);
    };
    question.signal.addEventListener('abort', onWithdrawn, { once: true });
    let reply: Promise<unknown>;
    try {
      reply = send({ cancellationSignal: wire.signal, stopWaitingOnCancel: true });
    } catch (error) {
      reply = Promise.reject(error);
    }
    return reply.then(
      (value) => {
        question.signal.removeEventListener('abort', onWithdrawn);
        return value;
      },
      (error: unknown) => {
        question.signal.removeEventListener('abort', onWithdrawn);
        throw errorFromClient(error);
      },
    );
  }

  /** Opens the question, shows it, and settles it with the answer or the failure. */
  function pose<Answer>(
    signal: AbortSignal | undefined,
    prepare: () => OutgoingQuestion<Answer>,
  ): Promise<Answer> {
    const question = questions.open(signal === undefined ? {} : { signal });
    if (question.settled) return question.promise as Promise<Answer>;
    let shown: Promise<Answer>;
    try {
      shown = prepare().show((send) => sendWithdrawable(question, send));
    } catch (error) {
      shown = Promise.reject(error);
    }
    shown.then(
      (answer) => question.resolve(answer),
      (error: unknown) => question.reject(error),
    );
    return question.promise as Promise<Answer>;
  }

  function ask(request: AskUserQuestionRequest): Promise<AskUserQuestionAnswer> {
    return pose(request.signal, () => outgoing(request));
  }

  function askAll(request: AskUserQuestionsRequest): Promise<AskUserQuestionsAnswer> {
    return pose(request.signal, () => outgoingAll(request));
  }

  function requestPermission(request: PermissionRequest): Promise<PermissionAnswer> {
    return pose(request.signal, () => outgoingApproval(request));
  }

  function askUrl(question: UrlQuestion): Promise<UrlQuestionAction> {
    return pose(question.signal, () => outgoingUrl(question));
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
    askAll,
    requestPermission,
    askUrl,
    get capabilities() {
      const client = readCapabilities();
      return {
        ...questionCapabilitiesFor(client, { questionsAsPermissions }),
        permissions: permissionScopeFor !== undefined && client != null,
      };
    },
    get pending() {
      return questions.size;
    },
    dispose,
    [Symbol.dispose]: dispose,
  };
}
