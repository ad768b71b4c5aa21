import { randomUUID } from 'node:crypto';
import type { ClientCapabilities, CreateElicitationRequest } from '@agentclientprotocol/sdk';
import { methods } from '@agentclientprotocol/sdk';
import { type Agent, askFailedError, unsupportedError } from 'dsh-user-interaction';
import type { OutgoingQuestion, QuestionClient } from './outgoing-question.js';
import { outgoingRequest } from './outgoing-request.js';
import type { QuestionScope } from './question-scope.js';

/** A page the person is asked to open, shown by the editor as a URL elicitation. */
export interface UrlQuestion {
  /** The full address (an `https:` or `http:` one, checked by the caller). */
  readonly url: string;
  /** What the editor shows with it: who asks, why, the domain and any warning. */
  readonly message: string;
  /** The calling agent: routes the question to its session and tool call. */
  readonly agent?: Agent;
  /** Withdraws the question (`$/cancel_request`). */
  readonly signal?: AbortSignal;
}

/** What the person did: consented (the editor opened the page), declined, or dismissed it. */
export type UrlQuestionAction = 'accept' | 'decline' | 'cancel';

/**
 * True when the client advertised URL elicitation at `initialize`:
 * `clientCapabilities.elicitation.url` present and an object (`{}` counts); omitted or `null`
 * means no ("URL support exists only when url is explicitly present and non-null",
 * agentclientprotocol.com/protocol/v1/elicitation, "Checking support").
 */
export function supportsUrlElicitation(
  clientCapabilities: ClientCapabilities | null | undefined,
): boolean {
  const url: unknown = clientCapabilities?.elicitation?.url;
  return typeof url === 'object' && url !== null && !Array.isArray(url);
}

/**
 * The `elicitation/create` request in URL mode, scoped to the session and tool call. Its shape
 * is `ElicitationUrlMode & { mode: "url" }` of `CreateElicitationRequest` in
 * `@agentclientprotocol/sdk` 2.4.0 (`schema/v1/schema.json`, stable since the elicitation RFD
 * completed): `elicitationId` and `url` required. The client shows the host and asks consent
 * before it navigates (agentclientprotocol.com/protocol/v1/elicitation, "User interaction
 * requirements"): the agent never fetches the page.
 */
export function urlElicitationParams(
  question: UrlQuestion,
  scope: QuestionScope,
): CreateElicitationRequest {
  return {
    sessionId: scope.sessionId,
    ...(scope.toolCallId !== undefined && { toolCallId: scope.toolCallId }),
    mode: 'url',
    elicitationId: randomUUID(),
    url: question.url,
    message: question.message,
  };
}

/** The person's action from the client's reply; any other action fails the ask (`ASK_FAILED`). */
export function actionFromUrlReply(reply: unknown): UrlQuestionAction {
  const action: unknown = (reply as { action?: unknown } | null)?.action;
  if (action === 'accept' || action === 'decline' || action === 'cancel') return action;
  throw askFailedError(reply, 'the editor answered a URL elicitation with an unknown action');
}

/**
 * A URL question ready to go: only to a client that advertised URL elicitation, never as a form
 * or a permission request in its place (`UNSUPPORTED` otherwise, nothing sent).
 */
export function outgoingUrl(
  question: UrlQuestion,
  scope: QuestionScope,
  to: QuestionClient,
): OutgoingQuestion<UrlQuestionAction> {
  if (!supportsUrlElicitation(to.capabilities))
    throw unsupportedError('this editor has no URL elicitation');
  return outgoingRequest(
    to.client,
    methods.client.elicitation.create,
    urlElicitationParams(question, scope),
    { field: 'url', what: 'a URL elicitation', remedy: 'the page is not offered' },
    actionFromUrlReply,
  );
}
