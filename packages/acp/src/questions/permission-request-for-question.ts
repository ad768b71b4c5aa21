import type { PermissionOption, RequestPermissionRequest } from '@agentclientprotocol/sdk';
import {
  type AskUserQuestionRequest,
  askFailedError,
  hasOptions,
  unsupportedError,
} from 'dsh-user-interaction';
import { checkScope } from './question-scope.js';

/** The scope of a permission request: ACP's `session/request_permission` needs a tool call. */
export interface PermissionScope {
  readonly sessionId: string;
  readonly toolCallId: string;
}

/** The `optionId` of the option at `index`: short and stable, whatever the option's text. */
export function permissionOptionId(index: number): string {
  return `option-${index}`;
}

/**
 * The `session/request_permission` params that ask a question with options, for a client
 * without form elicitation: the question is the tool call's title and each option a
 * permission option of kind `allow_once`. Throws `UNSUPPORTED` for a question without
 * options: nothing can be typed there.
 */
export function permissionRequestForQuestion(
  request: AskUserQuestionRequest,
  scope: PermissionScope,
): RequestPermissionRequest {
  if (!hasOptions(request)) {
    throw unsupportedError(
      'it has no options, and this editor shows only choices; offer options to choose from',
    );
  }
  const { sessionId, toolCallId } = checkScope(scope);
  if (toolCallId === undefined) {
    throw askFailedError(
      undefined,
      'the question could not be routed: a permission request needs a tool call id',
    );
  }
  // Every option is a one-time answer: "always" kinds invite a client to remember the pick
  // and answer later questions by itself, and "reject" kinds style an answer as a refusal.
  const options = request.options.map(
    (option, index): PermissionOption => ({
      optionId: permissionOptionId(index),
      name: option.label,
      kind: 'allow_once',
    }),
  );
  return { sessionId, toolCall: { toolCallId, title: request.question }, options };
}
