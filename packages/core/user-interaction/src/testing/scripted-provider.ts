import type { AskUserQuestionAnswer, AskUserQuestionRequest } from '../ask-user-question.js';
import { inputClosedError } from '../errors/ask-errors.js';
import {
  UserInteractionError,
  type UserInteractionErrorCode,
} from '../errors/user-interaction-error.js';
import { answerForOption, optionValue } from '../question-helpers.js';
import { PendingQuestions } from '../service/pending-question.js';
import type {
  UserInteractionCapabilities,
  UserInteractionProvider,
} from '../user-interaction-provider.js';
import { labelKey } from '../validation/label-key.js';

/** One scripted reply: an option by label or value, typed text, an error, or a raw answer. */
export type ScriptedAnswer =
  | { readonly label: string }
  | { readonly value: string }
  | { readonly custom: string }
  | { readonly error: UserInteractionErrorCode; readonly message?: string }
  /** Returned exactly as given, to test how a caller handles a UI's bad answer. */
  | { readonly raw: unknown };

/** A question the scripted provider is holding open. */
export interface HeldQuestion {
  /** The request as the provider received it. */
  readonly request: AskUserQuestionRequest;
  /** Settles the question with a scripted reply. Ignored once the question settled. */
  answer(reply: ScriptedAnswer): void;
  /** Resolves when the question's signal aborts. */
  readonly aborted: Promise<unknown>;
}

/** A provider for tests: replies from a queue, records what it was asked. */
export interface ScriptedProvider extends UserInteractionProvider, Disposable {
  /** Adds replies to the queue, used in order. */
  enqueue(...replies: ScriptedAnswer[]): this;
  /**
   * Queues a hold after the replies already queued: the question that reaches it stays open
   * until the test answers it. Resolves when that question arrives.
   */
  hold(): Promise<HeldQuestion>;
  /** Every request received, in order. */
  readonly requests: readonly AskUserQuestionRequest[];
  /** Questions received and not yet settled. */
  readonly pending: number;
  /** Rejects every pending question with `INPUT_CLOSED`, like a UI that went away. */
  dispose(): void;
}

/** Options of `createScriptedProvider`. */
export interface ScriptedProviderOptions {
  /** Replies to start with. */
  readonly answers?: readonly ScriptedAnswer[];
  /** Capabilities to report (default: everything). */
  readonly capabilities?: UserInteractionCapabilities;
  /** Keep held questions pending when their signal aborts, like a careless UI. */
  readonly ignoreSignal?: boolean;
}

type Hold = (question: HeldQuestion) => void;

function reply(request: AskUserQuestionRequest, scripted: ScriptedAnswer): AskUserQuestionAnswer {
  if ('raw' in scripted) return scripted.raw as AskUserQuestionAnswer;
  if ('error' in scripted) {
    throw new UserInteractionError(
      scripted.message ?? `Scripted ${scripted.error}.`,
      scripted.error,
    );
  }
  if ('custom' in scripted) return { answer: scripted.custom };
  const option = request.options?.find((candidate) =>
    'label' in scripted
      ? labelKey(candidate.label) === labelKey(scripted.label)
      : optionValue(candidate) === scripted.value,
  );
  if (option === undefined) {
    throw new Error(
      `Scripted reply ${JSON.stringify(scripted)} matches no option of "${request.question}".`,
    );
  }
  return answerForOption(option);
}

/** Creates a provider that answers from a script; for harness authors' tests. */
export function createScriptedProvider(options: ScriptedProviderOptions = {}): ScriptedProvider {
  // Replies and holds, in the order the questions will meet them.
  const queue: (ScriptedAnswer | Hold)[] = [...(options.answers ?? [])];
  const requests: AskUserQuestionRequest[] = [];
  const held = new PendingQuestions<AskUserQuestionAnswer>();

  function holdOpen(request: AskUserQuestionRequest, hold: Hold): Promise<AskUserQuestionAnswer> {
    const { signal } = request;
    // A careless UI keeps its question open when the signal aborts.
    const question = held.open(
      options.ignoreSignal === true || signal === undefined ? {} : { signal },
    );
    const aborted = new Promise<unknown>((resolveAborted) => {
      if (signal === undefined) return;
      if (signal.aborted) resolveAborted(signal.reason);
      else signal.addEventListener('abort', () => resolveAborted(signal.reason), { once: true });
    });
    hold({
      request,
      aborted,
      answer(scripted) {
        if (question.settled) return;
        try {
          question.resolve(reply(request, scripted));
        } catch (error) {
          question.reject(error);
        }
      },
    });
    return question.promise;
  }

  const provider: ScriptedProvider = {
    ...(options.capabilities !== undefined && { capabilities: options.capabilities }),
    async ask(request) {
      requests.push(request);
      const next = queue.shift();
      if (next === undefined) {
        throw new Error(`The scripted provider has no reply queued for "${request.question}".`);
      }
      if (typeof next === 'function') return holdOpen(request, next);
      return reply(request, next);
    },
    enqueue(...replies) {
      queue.push(...replies);
      return provider;
    },
    hold() {
      return new Promise<HeldQuestion>((resolve) => queue.push(resolve));
    },
    get requests() {
      return requests;
    },
    get pending() {
      return held.size;
    },
    dispose() {
      held.withdrawAll(inputClosedError('the scripted provider was disposed'));
    },
    [Symbol.dispose]() {
      provider.dispose();
    },
  };
  return provider;
}
