import type { AskUserQuestionAnswer, AskUserQuestionRequest } from '../ask-user-question.js';
import {
  duplicateProviderError,
  noProviderError,
  toUserInteractionError,
  unsupportedError,
} from '../errors/ask-errors.js';
import { hasOptions } from '../question-helpers.js';
import {
  FULL_CAPABILITIES,
  type UserInteractionCapabilities,
  type UserInteractionProvider,
} from '../user-interaction-provider.js';
import { validateAnswer } from '../validation/validate-answer.js';
import {
  checkRequestFields,
  isAbortSignal,
  readRequestFields,
  validateRequest,
} from '../validation/validate-request.js';
import {
  createPendingQuestion,
  isAborted,
  type PendingQuestion,
  withdrawnBy,
} from './pending-question.js';

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
  /** Whether a UI is registered. */
  readonly hasProvider: boolean;
  /** What the active UI can show; `undefined` when no UI is registered. */
  readonly capabilities: UserInteractionCapabilities | undefined;
}

/** The provider's answer, checked against the question it was shown. */
function settleAnswer(
  question: PendingQuestion<AskUserQuestionAnswer>,
  request: AskUserQuestionRequest,
  answer: unknown,
): void {
  let checked: AskUserQuestionAnswer;
  try {
    checked = validateAnswer(request, answer);
  } catch (error) {
    question.reject(error);
    return;
  }
  question.resolve(checked);
}

/** Calls the provider; whatever it does (throws, returns a broken thenable) becomes a promise. */
function callProvider(
  provider: UserInteractionProvider,
  request: AskUserQuestionRequest,
): Promise<unknown> {
  try {
    return Promise.resolve(provider.ask(request));
  } catch (error) {
    return Promise.reject(error);
  }
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

  /** What stops a valid request from being asked through `provider`, if anything. */
  function refusal(provider: UserInteractionProvider | undefined, request: AskUserQuestionRequest) {
    if (provider === undefined) return noProviderError();
    if (hasOptions(request)) return undefined;
    let freeForm: unknown;
    try {
      freeForm = provider.capabilities?.freeForm;
    } catch (error) {
      return toUserInteractionError(error);
    }
    if (freeForm !== false) return undefined;
    return unsupportedError(
      'it has no options, and this UI shows only choices; offer options to choose from',
    );
  }

  function ask(request: AskUserQuestionRequest): Promise<AskUserQuestionAnswer> {
    // Each field is read once; the checks and the UI see only what was read.
    const fields = readRequestFields(request);
    const signal = isAbortSignal(fields.signal) ? fields.signal : undefined;
    let valid: AskUserQuestionRequest;
    let provider: UserInteractionProvider | undefined;
    try {
      // An aborted signal wins over every other problem of the request.
      if (signal !== undefined && isAborted(signal)) throw withdrawnBy(signal);
      valid = checkRequestFields(fields);
      provider = active?.provider;
      const refused = refusal(provider, valid);
      if (refused !== undefined) throw refused;
    } catch (error) {
      return Promise.reject(toUserInteractionError(error));
    }
    const timeoutMs = valid.timeoutMs ?? defaultTimeoutMs;
    const question = createPendingQuestion<AskUserQuestionAnswer>({
      ...(signal !== undefined && { signal }),
      ...(timeoutMs !== undefined && { timeoutMs }),
    });
    if (question.settled) return question.promise;
    // With a time limit the UI gets the question's own signal, which aborts at the limit too
    // (its reason the ASK_TIMEOUT error), so the UI can clear its screen; without one, the
    // caller's signal is already the right one.
    const shown =
      timeoutMs === undefined
        ? valid
        : Object.freeze({ ...valid, signal: question.signal, timeoutMs });
    callProvider(provider as UserInteractionProvider, shown).then(
      (answer) => settleAnswer(question, valid, answer),
      (error: unknown) => question.reject(error),
    );
    // Settled by the caller's signal or the time limit at once, even when the UI ignores its signal.
    return question.promise;
  }

  return {
    registerProvider,
    ask,
    get hasProvider() {
      return active !== undefined;
    },
    get capabilities() {
      return active === undefined ? undefined : (active.provider.capabilities ?? FULL_CAPABILITIES);
    },
  };
}
