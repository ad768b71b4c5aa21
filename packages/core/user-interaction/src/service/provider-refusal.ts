import type { AskUserQuestionRequest } from '../ask-user-question.js';
import type { AskUserQuestionsRequest } from '../ask-user-questions.js';
import { noProviderError, toUserInteractionError, unsupportedError } from '../errors/ask-errors.js';
import type { UserInteractionError } from '../errors/user-interaction-error.js';
import type { PermissionRequest } from '../permission-request.js';
import { hasOptions } from '../question-helpers.js';
import {
  FULL_CAPABILITIES,
  type UserInteractionCapabilities,
  type UserInteractionProvider,
} from '../user-interaction-provider.js';

/** How a refusal names the UI, and why it is limited when that helps the model. */
export interface RefusalWording {
  /** Default `this UI`; such as `this editor`. */
  readonly ui?: string;
  /** Such as `it has no form elicitation`, shown in brackets after the limit. */
  readonly because?: string;
}

/**
 * What stops a valid request (one question or several) from being shown by a UI with these
 * capabilities, if anything: the one rule, and the one wording, of every UI that refuses a
 * question before it shows anything. A UI that shows one choice at a time says
 * `multiSelect: false`. `wording` names the UI in the message.
 */
export function refusalFor(
  capabilities: UserInteractionCapabilities | undefined,
  request: AskUserQuestionRequest | AskUserQuestionsRequest,
  { ui = 'this UI', because }: RefusalWording = {},
): UserInteractionError | undefined {
  const why = because === undefined ? '' : ` (${because})`;
  if (capabilities?.questions === false) {
    return unsupportedError(
      // After "This UI cannot show the question: ", said once, not twice.
      `${ui} shows no questions at all${why}; ask the question in your reply text, end your turn, and take the person's next message as the answer`,
    );
  }
  if (!('questions' in request)) {
    if (hasOptions(request) || capabilities?.freeForm !== false) return undefined;
    return unsupportedError(
      `it has no options, and ${ui} shows only choices${why}; offer options to choose from`,
    );
  }
  for (const item of request.questions) {
    if (item.multiSelect === true && capabilities?.multiSelect === false) {
      return unsupportedError(
        `\`${item.id}\` takes several choices, and ${ui} shows one choice at a time${why}; ask for one choice instead`,
      );
    }
    if (!hasOptions(item) && capabilities?.freeForm === false) {
      return unsupportedError(
        `\`${item.id}\` has no options, and ${ui} shows only choices${why}; offer options to choose from`,
      );
    }
  }
  return undefined;
}

/** What stops a valid request from being asked through `provider`, if anything. */
export function refusal(
  provider: UserInteractionProvider | undefined,
  request: AskUserQuestionRequest,
): UserInteractionError | undefined {
  if (provider === undefined) return noProviderError();
  let capabilities: UserInteractionCapabilities | undefined;
  try {
    capabilities = provider.capabilities;
  } catch (error) {
    return toUserInteractionError(error);
  }
  return refusalFor(capabilities, request);
}

/** What the provider can show, read once; a getter that throws is the UI failing. */
export function capabilitiesOf(provider: UserInteractionProvider): UserInteractionCapabilities {
  return provider.capabilities ?? FULL_CAPABILITIES;
}

/** The provider's `askAll`, read once, bound to it; `undefined` when it has none. */
export function askAllOf(
  provider: UserInteractionProvider,
): ((request: AskUserQuestionsRequest) => unknown) | undefined {
  const askAll: unknown = provider.askAll;
  return typeof askAll === 'function' ? askAll.bind(provider) : undefined;
}

/**
 * The provider's `requestPermission`, read once and bound to it, or the error that says why it
 * cannot ask for approval: no provider, no such method, or `capabilities.permissions: false`.
 */
export function permissionAskOf(
  provider: UserInteractionProvider | undefined,
): ((request: PermissionRequest) => unknown) | UserInteractionError {
  if (provider === undefined) return noProviderError();
  let ask: unknown;
  let permissions: unknown;
  try {
    ask = provider.requestPermission;
    permissions = provider.capabilities?.permissions;
  } catch (error) {
    return toUserInteractionError(error);
  }
  if (typeof ask !== 'function' || permissions === false) {
    return unsupportedError(
      'this UI cannot ask the person to approve a tool call, so the call did not run',
    );
  }
  return ask.bind(provider);
}

/** What stops valid questions from being asked through `provider`, if anything. */
export function refusalOfAll(
  provider: UserInteractionProvider,
  askAll: unknown,
  request: AskUserQuestionsRequest,
): UserInteractionError | undefined {
  let capabilities: UserInteractionCapabilities;
  try {
    capabilities = capabilitiesOf(provider);
  } catch (error) {
    return toUserInteractionError(error);
  }
  // Without `askAll`, the questions are asked one at a time through `ask`.
  return refusalFor(
    askAll === undefined ? { ...capabilities, multiSelect: false } : capabilities,
    request,
  );
}
