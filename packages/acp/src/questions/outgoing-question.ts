import { randomUUID } from 'node:crypto';
import {
  type AgentContext,
  type ClientCapabilities,
  type ClientRequestParamsByMethod,
  methods,
} from '@agentclientprotocol/sdk';
import {
  type AskUserQuestionAnswer,
  type AskUserQuestionRequest,
  type AskUserQuestionsAnswer,
  type AskUserQuestionsRequest,
  type PermissionAnswer,
  type PermissionRequest,
  type RefusalWording,
  refusalFor,
} from 'dsh-user-interaction';
import { choiceFromPermissionReply } from '../permissions/permission-options.js';
import { permissionRequestParams } from '../permissions/permission-request-params.js';
import { answerFromElicitation } from './answer-from-elicitation.js';
import { answerFromPermission } from './answer-from-permission.js';
import { answersFromElicitation } from './answers-from-elicitation.js';
import { elicitationForQuestion } from './elicitation-for-question.js';
import { elicitationForQuestions } from './elicitation-for-questions.js';
import { type OversizeWording, outgoingRequest } from './outgoing-request.js';
import { permissionQuestionsInTurn } from './permission-questions-in-turn.js';
import { permissionRequestForQuestion } from './permission-request-for-question.js';
import type { QuestionScope } from './question-scope.js';
import type { SendWithdrawable } from './send-withdrawable.js';
import { questionCapabilitiesFor, supportsFormElicitation } from './supports-form-elicitation.js';

/** A question ready to go to the client, its requests built and checked. */
export interface OutgoingQuestion<Answer> {
  /** Sends what shows the question, and resolves with the answer read from the reply. */
  readonly show: (sendWithdrawable: SendWithdrawable) => Promise<Answer>;
}

/** The client a question goes to, and what it advertised at `initialize`. */
export interface QuestionClient {
  /** Sends requests to the client. */
  readonly client: Pick<AgentContext, 'request'>;
  readonly capabilities: ClientCapabilities | null | undefined;
  /** Questions with one choice go as permission requests to a client without forms. */
  readonly questionsAsPermissions: boolean;
}

/** How a refusal names a client without forms: the contract's rules, in an editor's words. */
const EDITOR: RefusalWording = { ui: 'this editor', because: 'it has no form elicitation' };

/** What the refusal of each request over the message size limit says, by what it would show. */
const OVERSIZE = {
  questionForm: {
    field: 'options',
    what: 'a form',
    remedy: 'offer fewer options, or shorter labels, values and descriptions',
  },
  questionPermission: {
    field: 'options',
    what: 'a permission request',
    remedy: 'offer fewer options, or shorter labels',
  },
  questionsForm: {
    field: 'questions',
    what: 'a form',
    remedy:
      'ask fewer questions at once, or offer fewer options, or shorter labels, values and descriptions',
  },
  // The change was cut to fit; what cannot be cut (a title of megabytes) is refused, never sent.
  approval: { field: 'title', what: 'a permission request', remedy: 'the call is denied' },
} as const satisfies Record<string, OversizeWording>;

type Client = QuestionClient['client'];

/** A form (`elicitation/create`) of one question or several, checked against the size limit now. */
function formRequest<Answer>(
  client: Client,
  params: ClientRequestParamsByMethod['elicitation/create'],
  oversize: OversizeWording,
  read: (reply: unknown) => Answer,
): OutgoingQuestion<Answer> {
  return outgoingRequest(client, methods.client.elicitation.create, params, oversize, read);
}

/**
 * One question: a form (`elicitation/create`) for a client with form elicitation, else a
 * `session/request_permission` when `questionsAsPermissions` allows it. Throws the refusal
 * (`UNSUPPORTED`) of what the client cannot show, and `INVALID_REQUEST` for a request over the
 * message size limit, before anything is sent.
 */
export function outgoingQuestion(
  request: AskUserQuestionRequest,
  scope: QuestionScope,
  to: QuestionClient,
): OutgoingQuestion<AskUserQuestionAnswer> {
  const { client, capabilities, questionsAsPermissions } = to;
  const forms = supportsFormElicitation(capabilities);
  const refused = refusalFor(
    questionCapabilitiesFor(capabilities, { questionsAsPermissions }),
    request,
    EDITOR,
  );
  if (refused !== undefined) throw refused;
  if (forms) {
    return formRequest(
      client,
      elicitationForQuestion(request, scope),
      OVERSIZE.questionForm,
      (reply) => answerFromElicitation(request, reply),
    );
  }
  // A permission request must name a tool call; clients show an unknown one as a new entry.
  const toolCallId = scope.toolCallId ?? `question-${randomUUID()}`;
  const params = permissionRequestForQuestion(request, { sessionId: scope.sessionId, toolCallId });
  return outgoingRequest(
    client,
    methods.client.session.requestPermission,
    params,
    OVERSIZE.questionPermission,
    (reply) => answerFromPermission(request, reply),
  );
}

/**
 * Several questions: one form for a client with form elicitation, else (with
 * `questionsAsPermissions`) a permission request each, one after another. Throws as
 * `outgoingQuestion` does.
 */
export function outgoingQuestions(
  request: AskUserQuestionsRequest,
  scope: QuestionScope,
  to: QuestionClient,
): OutgoingQuestion<AskUserQuestionsAnswer> {
  const { client, capabilities, questionsAsPermissions } = to;
  const forms = supportsFormElicitation(capabilities);
  const shown = questionCapabilitiesFor(capabilities, { questionsAsPermissions });
  // Without forms the questions are permission requests, one choice at a time.
  const refused = refusalFor(forms ? shown : { ...shown, multiSelect: false }, request, EDITOR);
  if (refused !== undefined) throw refused;
  if (forms) {
    return formRequest(
      client,
      elicitationForQuestions(request, scope),
      OVERSIZE.questionsForm,
      (reply) => answersFromElicitation(request, reply),
    );
  }
  return permissionQuestionsInTurn(request, scope, (params, options) =>
    client.request(methods.client.session.requestPermission, params, options),
  );
}

/**
 * An approval: a `session/request_permission` on the tool call the editor already shows,
 * answered by the choice of the option the person selected. Throws `INVALID_REQUEST` for a
 * request that cannot be cut to the message size limit.
 */
export function outgoingApproval(
  request: PermissionRequest,
  scope: QuestionScope,
  client: Client,
): OutgoingQuestion<PermissionAnswer> {
  const params = permissionRequestParams(request, {
    sessionId: scope.sessionId,
    toolCallId: scope.toolCallId ?? request.toolCallId,
  });
  return outgoingRequest(
    client,
    methods.client.session.requestPermission,
    params,
    OVERSIZE.approval,
    (reply) => choiceFromPermissionReply(request, reply),
  );
}
