import type { AskUserQuestionAnswer, AskUserQuestionRequest } from '../ask-user-question.js';
import type { AskUserQuestionsAnswer, AskUserQuestionsRequest } from '../ask-user-questions.js';
import { duplicateProviderError, noProviderError } from '../errors/ask-errors.js';
import type { UserInteractionError } from '../errors/user-interaction-error.js';
import { isUserInteractionError } from '../errors/user-interaction-error.js';
import type { PermissionOutcome, PermissionRequest } from '../permission-request.js';
import type {
  UserInteractionCapabilities,
  UserInteractionProvider,
} from '../user-interaction-provider.js';
import { checkedRequest } from '../validation/checked-requests.js';
import { validateAnswer } from '../validation/validate-answer.js';
import { validateAnswers } from '../validation/validate-answers.js';
import {
  checkPermissionFields,
  readPermissionFields,
  validatePermissionAnswer,
} from '../validation/validate-permission-request.js';
import {
  checkQuestionsRequestFields,
  type QuestionsRequestFields,
  readQuestionsRequestFields,
} from '../validation/validate-questions-request.js';
import {
  checkRequestFields,
  type RequestFields,
  readRequestFields,
  validateRequest,
} from '../validation/validate-request.js';
import { askProviderEachInTurn, callProvider } from './ask-provider-each-in-turn.js';
import { poseQuestion } from './pose-question.js';
import {
  askAllOf,
  capabilitiesOf,
  permissionAskOf,
  refusal,
  refusalOfAll,
} from './provider-refusal.js';

/** Options of `createUserInteraction`. */
export interface UserInteractionOptions {
  /** A time limit for every question that does not set its own `timeoutMs`. */
  readonly defaultTimeoutMs?: number;
}

/** Options of `registerProvider`. */
export interface RegisterProviderOptions {
  /** Disposes the registration when aborted (the owning scope ended, a module was reloaded). */
  readonly signal?: AbortSignal;
}

/** Ends a registration. Idempotent; also `Disposable`, so `using` works. */
export type ProviderRegistration = (() => void) & Disposable;

/** The question service of one context: at most one UI answers its questions. */
export interface UserInteraction {
  /** Makes `provider` the UI of this context. Throws `DUPLICATE_PROVIDER` while another is active. */
  registerProvider(
    provider: UserInteractionProvider,
    options?: RegisterProviderOptions,
  ): ProviderRegistration;
  /** Asks the person through the active UI. Rejects only with `UserInteractionError`. */
  ask(request: AskUserQuestionRequest): Promise<AskUserQuestionAnswer>;
  /**
   * Asks several questions at once through the active UI, and settles with every answer or
   * fails as a whole. Rejects only with `UserInteractionError`.
   */
  askAll(request: AskUserQuestionsRequest): Promise<AskUserQuestionsAnswer>;
  /**
   * Asks the person, through the active UI, to approve one tool call. Never rejects: with no
   * UI, a UI that cannot ask, no human to answer, an abort, a time limit or an invalid request,
   * the outcome is a denial whose `decidedBy` carries the code (`unanswered`), never an approval.
   * An approval is never shown as a question, nor a question as an approval.
   */
  requestPermission(request: PermissionRequest): Promise<PermissionOutcome>;
  /** Whether a UI is registered. */
  readonly hasProvider: boolean;
  /** What the active UI can show; `undefined` when no UI is registered. */
  readonly capabilities: UserInteractionCapabilities | undefined;
}

/** The denial of an approval nobody gave: the code of what stopped it. */
function unansweredOutcome(error: unknown): PermissionOutcome {
  // poseQuestion rejects only with UserInteractionError.
  const { code, message } = error as UserInteractionError;
  return Object.freeze({
    allowed: false,
    decidedBy: Object.freeze({ kind: 'unanswered', code, message }),
  });
}

/** Creates the question service of one context (an agent, a session, a test). */
export function createUserInteraction(options: UserInteractionOptions = {}): UserInteraction {
  const { defaultTimeoutMs } = options;
  if (defaultTimeoutMs !== undefined) {
    validateRequest({ question: 'defaultTimeoutMs', timeoutMs: defaultTimeoutMs });
  }
  let active: { readonly provider: UserInteractionProvider } | undefined;

  function registerProvider(
    provider: UserInteractionProvider,
    { signal }: RegisterProviderOptions = {},
  ): ProviderRegistration {
    if (typeof provider?.ask !== 'function') {
      throw new TypeError('registerProvider() needs an object with an ask(request) method.');
    }
    if (active !== undefined) throw duplicateProviderError();
    const entry = { provider };
    let disposed = false;
    const dispose = (): void => {
      if (disposed) return;
      disposed = true;
      signal?.removeEventListener('abort', dispose);
      // A stale registration must never remove the provider that replaced it.
      if (active === entry) active = undefined;
    };
    if (signal?.aborted !== true) {
      active = entry;
      signal?.addEventListener('abort', dispose, { once: true });
    } else {
      disposed = true;
    }
    return Object.assign(dispose, { [Symbol.dispose]: dispose });
  }

  function ask(request: AskUserQuestionRequest): Promise<AskUserQuestionAnswer> {
    // Each field is read once; the checks and the UI see only what was read. A request this
    // package checked and froze already (the tool's) is taken as it is.
    const checked = checkedRequest<AskUserQuestionRequest>('question', request);
    const fields = checked === undefined ? readRequestFields(request) : undefined;
    return poseQuestion({
      signal: checked === undefined ? fields?.signal : checked.signal,
      defaultTimeoutMs,
      prepare() {
        const valid = checked ?? checkRequestFields(fields as RequestFields);
        const provider = active?.provider;
        const refused = refusal(provider, valid);
        if (refused !== undefined) throw refused;
        const ui = provider as UserInteractionProvider;
        return { valid, show: (shown) => callProvider((asked) => ui.ask(asked), shown) };
      },
      validate: validateAnswer,
    });
  }

  function askAll(request: AskUserQuestionsRequest): Promise<AskUserQuestionsAnswer> {
    const checked = checkedRequest<AskUserQuestionsRequest>('questions', request);
    const fields = checked === undefined ? readQuestionsRequestFields(request) : undefined;
    return poseQuestion({
      signal: checked === undefined ? fields?.signal : checked.signal,
      defaultTimeoutMs,
      prepare() {
        const valid = checked ?? checkQuestionsRequestFields(fields as QuestionsRequestFields);
        if (active === undefined) throw noProviderError();
        const { provider } = active;
        const showAll = askAllOf(provider);
        const refused = refusalOfAll(provider, showAll, valid);
        if (refused !== undefined) throw refused;
        return {
          valid,
          show: (shown, settled) =>
            showAll === undefined
              ? askProviderEachInTurn(provider, shown, settled)
              : callProvider(showAll, shown),
        };
      },
      validate: validateAnswers,
    });
  }

  function requestPermission(request: PermissionRequest): Promise<PermissionOutcome> {
    const fields = readPermissionFields(request);
    return poseQuestion({
      signal: fields.signal,
      defaultTimeoutMs,
      prepare() {
        const valid = checkPermissionFields(fields);
        const ask = permissionAskOf(active?.provider);
        if (isUserInteractionError(ask)) throw ask;
        return { valid, show: (shown) => callProvider(ask, shown) };
      },
      validate: validatePermissionAnswer,
    }).catch(unansweredOutcome);
  }

  return {
    registerProvider,
    ask,
    askAll,
    requestPermission,
    get hasProvider() {
      return active !== undefined;
    },
    get capabilities() {
      return active === undefined ? undefined : capabilitiesOf(active.provider);
    },
  };
}
