import type { AgentContext, ClientCapabilities } from '@agentclientprotocol/sdk';
import type {
  AskUserQuestionAnswer,
  AskUserQuestionRequest,
  AskUserQuestionsAnswer,
  AskUserQuestionsRequest,
  PermissionAnswer,
  PermissionRequest,
  UserInteractionCapabilities,
  UserInteractionProvider,
} from 'dsh-user-interaction';
import {
  askFailedError,
  inputClosedError,
  isUserInteractionError,
  PendingQuestions,
  unsupportedError,
} from 'dsh-user-interaction';
import {
  type OutgoingQuestion,
  outgoingApproval,
  outgoingQuestion,
  outgoingQuestions,
  type QuestionClient,
} from './outgoing-question.js';
import { checkScope, type QuestionScope } from './question-scope.js';
import { WireRequest } from './send-withdrawable.js';
import { questionCapabilitiesFor } from './supports-form-elicitation.js';
import { outgoingUrl, type UrlQuestion, type UrlQuestionAction } from './url-elicitation.js';

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

  /** The client as a question finds it now. */
  function questionClient(): QuestionClient {
    return { client: connection.client, capabilities: readCapabilities(), questionsAsPermissions };
  }

  function routedApproval(request: PermissionRequest): QuestionScope {
    if (permissionScopeFor === undefined) {
      throw unsupportedError('this editor connection takes no approvals');
    }
    try {
      return checkScope(permissionScopeFor(request));
    } catch (error) {
      if (isUserInteractionError(error)) throw error;
      throw askFailedError(error, 'the approval could not be routed');
    }
  }

  /** Opens the question, shows it, and settles it with the answer or the failure. */
  function pose<Answer>(
    signal: AbortSignal | undefined,
    prepare: () => OutgoingQuestion<Answer>,
  ): Promise<Answer> {
    // Its one controller is the wire request's: the question's own signal is never read.
    const wire = new WireRequest(connection.signal);
    const { withdraw } = wire;
    const question = questions.open(
      signal === undefined ? { onWithdraw: withdraw } : { signal, onWithdraw: withdraw },
    );
    if (question.settled) return question.promise as Promise<Answer>;
    let shown: Promise<Answer>;
    try {
      shown = prepare().show((send) => wire.send(question, send));
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
    return pose(request.signal, () => outgoingQuestion(request, routed(request), questionClient()));
  }

  function askAll(request: AskUserQuestionsRequest): Promise<AskUserQuestionsAnswer> {
    return pose(request.signal, () =>
      outgoingQuestions(request, routed(request), questionClient()),
    );
  }

  function requestPermission(request: PermissionRequest): Promise<PermissionAnswer> {
    return pose(request.signal, () =>
      outgoingApproval(request, routedApproval(request), connection.client),
    );
  }

  function askUrl(question: UrlQuestion): Promise<UrlQuestionAction> {
    return pose(question.signal, () => outgoingUrl(question, routed(question), questionClient()));
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
