import type { AskUserQuestionAnswer, AskUserQuestionRequest } from './ask-user-question.js';
import { hasOptions } from './question-helpers.js';
import { isUserInteractionError, UserInteractionError } from './user-interaction-error.js';
import type {
  UserInteractionCapabilities,
  UserInteractionProvider,
} from './user-interaction-provider.js';
import { validateAnswer } from './validate-answer.js';
import { signalOf, validateRequest } from './validate-request.js';

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

const FULL_CAPABILITIES: UserInteractionCapabilities = Object.freeze({
  freeForm: true,
  customAnswer: true,
});

function abortedError(signal: AbortSignal): UserInteractionError {
  return new UserInteractionError(
    'ASK_ABORTED',
    'The question was withdrawn before the person answered.',
    { cause: signal.reason },
  );
}

/** Anything a UI rejects with becomes a `UserInteractionError` of this copy of the package. */
function toAskFailure(error: unknown): UserInteractionError {
  if (error instanceof UserInteractionError) return error;
  if (isUserInteractionError(error)) {
    return new UserInteractionError(error.code, error.message, { cause: error });
  }
  // The original text stays in `cause`: it may carry details the model must not see.
  return new UserInteractionError('ASK_FAILED', 'The UI failed to ask the question.', {
    cause: error,
  });
}

function callProvider(
  provider: UserInteractionProvider,
  request: AskUserQuestionRequest,
): Promise<AskUserQuestionAnswer> {
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
    if (active !== undefined) {
      throw new UserInteractionError(
        'DUPLICATE_PROVIDER',
        'A UI provider is already registered in this context; dispose its registration first.',
      );
    }
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
    const signal = signalOf(request);
    if (signal?.aborted) return Promise.reject(abortedError(signal));
    let valid: AskUserQuestionRequest;
    try {
      valid = validateRequest(request);
    } catch (error) {
      return Promise.reject(error);
    }
    const provider = active?.provider;
    if (provider === undefined) {
      return Promise.reject(
        new UserInteractionError('NO_PROVIDER', 'No UI is available to ask the person a question.'),
      );
    }
    if (!hasOptions(valid) && provider.capabilities?.freeForm === false) {
      return Promise.reject(
        new UserInteractionError(
          'UNSUPPORTED',
          'This UI cannot show a question without options; offer options to choose from.',
        ),
      );
    }
    const timeoutMs = valid.timeoutMs ?? defaultTimeoutMs;
    if (signal === undefined && timeoutMs === undefined) {
      // Nothing can withdraw this question: no race to set up.
      return callProvider(provider, copyRequest(valid, undefined, undefined)).then(
        (answer) => validateAnswer(valid, answer),
        (error: unknown) => Promise.reject(toAskFailure(error)),
      );
    }
    return askWithdrawable(provider, valid, signal, timeoutMs);
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

function copyRequest(
  request: AskUserQuestionRequest,
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
): AskUserQuestionRequest {
  // A copy, so that a caller changing its object later cannot change what the UI shows.
  const copy: { -readonly [K in keyof AskUserQuestionRequest]: AskUserQuestionRequest[K] } = {
    question: request.question,
  };
  if (request.header !== undefined) copy.header = request.header;
  if (request.options !== undefined) copy.options = request.options;
  if (request.allowCustom !== undefined) copy.allowCustom = request.allowCustom;
  if (request.agent !== undefined) copy.agent = request.agent;
  if (signal !== undefined) copy.signal = signal;
  if (timeoutMs !== undefined) copy.timeoutMs = timeoutMs;
  return copy;
}

/**
 * Races the UI against the caller's signal and the time limit, so the ask settles at once
 * even when the UI ignores its signal. The UI's own signal is aborted too, so it can clear
 * its screen. Every listener and timer is removed when the ask settles.
 */
function askWithdrawable(
  provider: UserInteractionProvider,
  request: AskUserQuestionRequest,
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
): Promise<AskUserQuestionAnswer> {
  return new Promise((resolve, reject) => {
    const pending = new PendingAsk(request, signal, timeoutMs, resolve, reject);
    callProvider(provider, copyRequest(request, pending.providerSignal, timeoutMs)).then(
      (answer) => pending.answered(answer),
      (error: unknown) => pending.failed(error),
    );
  });
}

/**
 * One ask in flight. It is its own abort listener (`handleEvent`): Node registers a listener
 * object several times faster than a fresh closure, and this is the hot path of every ask.
 */
class PendingAsk {
  readonly #request: AskUserQuestionRequest;
  readonly #signal: AbortSignal | undefined;
  readonly #resolve: (answer: AskUserQuestionAnswer) => void;
  readonly #reject: (error: unknown) => void;
  // Without a time limit the caller's signal is already the right one for the UI.
  readonly #controller: AbortController | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #settled = false;

  constructor(
    request: AskUserQuestionRequest,
    signal: AbortSignal | undefined,
    timeoutMs: number | undefined,
    resolve: (answer: AskUserQuestionAnswer) => void,
    reject: (error: unknown) => void,
  ) {
    this.#request = request;
    this.#signal = signal;
    this.#resolve = resolve;
    this.#reject = reject;
    signal?.addEventListener('abort', this, { once: true });
    if (timeoutMs !== undefined) {
      this.#controller = new AbortController();
      this.#timer = setTimeout(() => this.#timedOut(timeoutMs), timeoutMs);
    }
  }

  /** The signal the UI receives. */
  get providerSignal(): AbortSignal | undefined {
    return this.#controller?.signal ?? this.#signal;
  }

  /** The caller's signal aborted. */
  handleEvent(): void {
    if (!this.#settle()) return;
    const error = abortedError(this.#signal as AbortSignal);
    this.#controller?.abort(error);
    this.#reject(error);
  }

  answered(answer: AskUserQuestionAnswer): void {
    if (!this.#settle()) return;
    try {
      this.#resolve(validateAnswer(this.#request, answer));
    } catch (error) {
      this.#reject(error);
    }
  }

  failed(error: unknown): void {
    if (this.#settle()) this.#reject(toAskFailure(error));
  }

  #timedOut(timeoutMs: number): void {
    if (!this.#settle()) return;
    const error = new UserInteractionError(
      'ASK_TIMEOUT',
      `The person did not answer within ${timeoutMs} ms.`,
    );
    this.#controller?.abort(error);
    this.#reject(error);
  }

  #settle(): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#signal?.removeEventListener('abort', this);
    return true;
  }
}
