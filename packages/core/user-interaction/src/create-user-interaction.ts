import type { AskUserQuestionAnswer, AskUserQuestionRequest } from './ask-user-question.js';
import { hasOptions } from './question-helpers.js';
import { invalidRequest, unreadableField } from './request-field-checks.js';
import { toUserInteractionError, UserInteractionError } from './user-interaction-error.js';
import type {
  UserInteractionCapabilities,
  UserInteractionProvider,
} from './user-interaction-provider.js';
import { validateAnswer } from './validate-answer.js';
import {
  checkRequestFields,
  isAbortSignal,
  readRequestFields,
  validateRequest,
} from './validate-request.js';

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

/** Whether the signal has aborted; a signal whose `aborted` cannot be read is not aborted. */
function isAborted(signal: AbortSignal): boolean {
  try {
    return signal.aborted === true;
  } catch {
    return false;
  }
}

/** `ASK_ABORTED` with the signal's reason; `INVALID_REQUEST` when a signal-like object cannot give it. */
function abortedError(signal: AbortSignal): UserInteractionError {
  let reason: unknown;
  try {
    reason = signal.reason;
  } catch (error) {
    return unreadableField('signal.reason', error);
  }
  return new UserInteractionError(
    'ASK_ABORTED',
    'The question was withdrawn before the person answered.',
    { cause: reason },
  );
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
    // Each field is read once; the checks and the UI see only what was read.
    const fields = readRequestFields(request);
    const signal = isAbortSignal(fields.signal) ? fields.signal : undefined;
    if (signal !== undefined && isAborted(signal)) return Promise.reject(abortedError(signal));
    let valid: AskUserQuestionRequest;
    try {
      valid = checkRequestFields(fields);
    } catch (error) {
      return Promise.reject(error);
    }
    const provider = active?.provider;
    if (provider === undefined) {
      return Promise.reject(
        new UserInteractionError('NO_PROVIDER', 'No UI is available to ask the person a question.'),
      );
    }
    if (!hasOptions(valid)) {
      let freeForm: unknown;
      try {
        freeForm = provider.capabilities?.freeForm;
      } catch (error) {
        return Promise.reject(toUserInteractionError(error));
      }
      if (freeForm === false) {
        return Promise.reject(
          new UserInteractionError(
            'UNSUPPORTED',
            'This UI cannot show a question without options; offer options to choose from.',
          ),
        );
      }
    }
    const timeoutMs = valid.timeoutMs ?? defaultTimeoutMs;
    if (signal === undefined && timeoutMs === undefined) {
      // Nothing can withdraw this question: no race to set up.
      return callProvider(provider, valid).then(
        (answer) => validateAnswer(valid, answer),
        (error: unknown) => Promise.reject(toUserInteractionError(error)),
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
    // The signal was unusable, or it aborted while the request was read.
    if (pending.settled) return;
    // With a time limit the UI gets its own signal, and the limit it runs under.
    const shown =
      timeoutMs === undefined
        ? request
        : Object.freeze({ ...request, signal: pending.providerSignal as AbortSignal, timeoutMs });
    callProvider(provider, shown).then(
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
    if (signal !== undefined) {
      try {
        signal.addEventListener('abort', this, { once: true });
      } catch (error) {
        this.#settled = true;
        reject(invalidRequest('signal', 'could not be listened to', error));
        return;
      }
      // A getter of the request may have aborted it after it was first checked.
      if (isAborted(signal)) this.handleEvent();
      // A signal-like object may even have called its listener already.
      if (this.#settled) return;
    }
    if (timeoutMs !== undefined) {
      this.#controller = new AbortController();
      this.#timer = setTimeout(() => this.#timedOut(timeoutMs), timeoutMs);
    }
  }

  /** Whether the ask has settled. */
  get settled(): boolean {
    return this.#settled;
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
    if (this.#settle()) this.#reject(toUserInteractionError(error));
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
    try {
      this.#signal?.removeEventListener('abort', this);
    } catch {
      // A signal-like object that cannot remove a listener keeps it; the ask is settled anyway.
    }
    return true;
  }
}
