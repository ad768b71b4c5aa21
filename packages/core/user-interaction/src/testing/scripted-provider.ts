// The provider's names come by the package's own name, as a provider author's would: the
// provider subpath then stays one chunk of its own (see test/public-surface.test.ts).
import {
  answerForItem,
  answerForOption,
  inputClosedError,
  optionValue,
  PendingQuestions,
  UserInteractionError,
} from 'dsh-user-interaction/provider';
import type {
  AskUserQuestionAnswer,
  AskUserQuestionOption,
  AskUserQuestionRequest,
} from '../ask-user-question.js';
import type {
  AskUserQuestionItemAnswer,
  AskUserQuestionsAnswer,
  AskUserQuestionsRequest,
} from '../ask-user-questions.js';
import type { UserInteractionErrorCode } from '../errors/user-interaction-error.js';
import type {
  PermissionAnswer,
  PermissionChoice,
  PermissionRequest,
} from '../permission-request.js';
import type {
  UserInteractionCapabilities,
  UserInteractionProvider,
} from '../user-interaction-provider.js';
import { labelKey } from '../validation/label-key.js';

/**
 * The scripted reply to one question of several: options by label or value (one or many),
 * typed text, or both (a typed answer next to ticked options).
 */
export interface ScriptedItemAnswer {
  readonly label?: string;
  readonly labels?: readonly string[];
  readonly value?: string;
  readonly values?: readonly string[];
  readonly custom?: string;
}

/** One scripted reply: an option by label or value, typed text, an error, or a raw answer. */
export type ScriptedAnswer =
  | { readonly label: string }
  | { readonly value: string }
  | { readonly custom: string }
  /** For `askAll`: the reply to each question, by its id (a question left out is not answered). */
  | { readonly answers: Readonly<Record<string, ScriptedItemAnswer>> }
  | { readonly error: UserInteractionErrorCode; readonly message?: string }
  /** For `requestPermission`: the person's choice. */
  | { readonly choice: PermissionChoice }
  /** Returned exactly as given, to test how a caller handles a UI's bad answer. */
  | { readonly raw: unknown };

/** A question (or, from `askAll`, several) the scripted provider is holding open. */
export interface HeldQuestion<
  Request extends
    | AskUserQuestionRequest
    | AskUserQuestionsRequest
    | PermissionRequest = AskUserQuestionRequest,
> {
  /** The request as the provider received it. */
  readonly request: Request;
  /** Settles the question with a scripted reply. Ignored once the question settled. */
  answer(reply: ScriptedAnswer): void;
  /** Resolves when the question's signal aborts. */
  readonly aborted: Promise<unknown>;
}

/** A provider for tests: replies from a queue, records what it was asked. */
export interface ScriptedProvider extends UserInteractionProvider, Disposable {
  askAll(request: AskUserQuestionsRequest): Promise<AskUserQuestionsAnswer>;
  /** Answers an approval with the next reply: `{ choice }`, an error, or a hold. */
  requestPermission(request: PermissionRequest): Promise<PermissionAnswer>;
  /** Adds replies to the queue, used in order. */
  enqueue(...replies: ScriptedAnswer[]): this;
  /**
   * Queues a hold after the replies already queued: the question (or, from `askAll`, the
   * questions) that reaches it stays open until the test answers it. Resolves when it arrives.
   */
  hold<
    Request extends
      | AskUserQuestionRequest
      | AskUserQuestionsRequest
      | PermissionRequest = AskUserQuestionRequest,
  >(): Promise<HeldQuestion<Request>>;
  /** Every request received by `ask`, in order. */
  readonly requests: readonly AskUserQuestionRequest[];
  /** Every request received by `askAll`, in order. */
  readonly batches: readonly AskUserQuestionsRequest[];
  /** Every request received by `requestPermission`, in order. */
  readonly permissions: readonly PermissionRequest[];
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

type AnyRequest = AskUserQuestionRequest | AskUserQuestionsRequest | PermissionRequest;
type Hold = (question: HeldQuestion<AnyRequest>) => void;

/** The option of `request` a scripted label or value names; throws when none does. */
function scriptedOption(
  request: Pick<AskUserQuestionRequest, 'question' | 'options'>,
  by: { readonly label: string } | { readonly value: string },
): AskUserQuestionOption {
  const option = request.options?.find((candidate) =>
    'label' in by
      ? labelKey(candidate.label) === labelKey(by.label)
      : optionValue(candidate) === by.value,
  );
  if (option === undefined) {
    throw new Error(
      `Scripted reply ${JSON.stringify(by)} matches no option of "${request.question}".`,
    );
  }
  return option;
}

function scriptedError(scripted: {
  readonly error: UserInteractionErrorCode;
  readonly message?: string;
}): UserInteractionError {
  return new UserInteractionError(
    scripted.message ?? `Scripted ${scripted.error}.`,
    scripted.error,
  );
}

function reply(request: AskUserQuestionRequest, scripted: ScriptedAnswer): AskUserQuestionAnswer {
  if ('raw' in scripted) return scripted.raw as AskUserQuestionAnswer;
  if ('error' in scripted) throw scriptedError(scripted);
  if ('answers' in scripted) throw new Error('A reply with `answers` is for askAll, not ask.');
  if ('choice' in scripted) throw new Error('A reply with `choice` is for requestPermission.');
  if ('custom' in scripted) return { answer: scripted.custom };
  return answerForOption(scriptedOption(request, scripted));
}

function replyAll(
  request: AskUserQuestionsRequest,
  scripted: ScriptedAnswer,
): AskUserQuestionsAnswer {
  if ('raw' in scripted) return scripted.raw as AskUserQuestionsAnswer;
  if ('error' in scripted) throw scriptedError(scripted);
  if (!('answers' in scripted)) throw new Error('askAll needs a reply with `answers`.');
  const answers: AskUserQuestionItemAnswer[] = [];
  for (const item of request.questions) {
    const given = scripted.answers[item.id];
    if (given === undefined) continue;
    const labels = [...(given.labels ?? []), ...(given.label === undefined ? [] : [given.label])];
    const values = [...(given.values ?? []), ...(given.value === undefined ? [] : [given.value])];
    const options = [
      ...labels.map((label) => scriptedOption(item, { label })),
      ...values.map((value) => scriptedOption(item, { value })),
    ];
    answers.push(answerForItem(item, options, given.custom));
  }
  return { answers };
}

function replyPermission(scripted: ScriptedAnswer): PermissionAnswer {
  if ('raw' in scripted) return scripted.raw as PermissionAnswer;
  if ('error' in scripted) throw scriptedError(scripted);
  if (!('choice' in scripted)) throw new Error('requestPermission needs a reply with `choice`.');
  return { choice: scripted.choice };
}

/** Creates a provider that answers from a script; for harness authors' tests. */
export function createScriptedProvider(options: ScriptedProviderOptions = {}): ScriptedProvider {
  // Replies and holds, in the order the questions will meet them.
  const queue: (ScriptedAnswer | Hold)[] = [...(options.answers ?? [])];
  const requests: AskUserQuestionRequest[] = [];
  const batches: AskUserQuestionsRequest[] = [];
  const permissions: PermissionRequest[] = [];
  const held = new PendingQuestions<unknown>();

  function holdOpen<Request extends AnyRequest>(
    request: Request,
    hold: Hold,
    answerWith: (scripted: ScriptedAnswer) => unknown,
  ): Promise<unknown> {
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
          question.resolve(answerWith(scripted));
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
      const answerWith = (scripted: ScriptedAnswer) => reply(request, scripted);
      if (typeof next === 'function') {
        return (await holdOpen(request, next, answerWith)) as AskUserQuestionAnswer;
      }
      return answerWith(next);
    },
    async askAll(request) {
      batches.push(request);
      const next = queue.shift();
      if (next === undefined) {
        throw new Error('The scripted provider has no reply queued for askAll.');
      }
      const answerWith = (scripted: ScriptedAnswer) => replyAll(request, scripted);
      if (typeof next === 'function') {
        return (await holdOpen(request, next, answerWith)) as AskUserQuestionsAnswer;
      }
      return answerWith(next);
    },
    async requestPermission(request) {
      permissions.push(request);
      const next = queue.shift();
      if (next === undefined) {
        throw new Error(`The scripted provider has no reply queued for "${request.title}".`);
      }
      if (typeof next === 'function') {
        return (await holdOpen(request, next, replyPermission)) as PermissionAnswer;
      }
      return replyPermission(next);
    },
    enqueue(...replies) {
      queue.push(...replies);
      return provider;
    },
    hold<Request extends AnyRequest>() {
      return new Promise<HeldQuestion<Request>>((resolve) => queue.push(resolve as Hold));
    },
    get requests() {
      return requests;
    },
    get batches() {
      return batches;
    },
    get permissions() {
      return permissions;
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
