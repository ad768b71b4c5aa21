import type { Interface } from 'node:readline';
import {
  type AskUserQuestionAnswer,
  type AskUserQuestionRequest,
  type AskUserQuestionsAnswer,
  type AskUserQuestionsRequest,
  askFailedError,
  FULL_CAPABILITIES,
  inputClosedError,
  isUserInteractionError,
  PendingQuestions,
  type PermissionAnswer,
  type PermissionRequest,
  type UserInteractionCapabilities,
  type UserInteractionProvider,
} from 'dsh-user-interaction/provider';
import { loadTextWidth, textWidthExact } from '../text/text-width.js';
import { QuestionTerminal } from './question-terminal.js';
import {
  loadScreens,
  needsScreens,
  type QueuedQuestion,
  screensLoaded,
  startQuestion,
} from './start-question.js';

/** How questions are shown: `auto` picks `interactive` when input and output are terminals. */
export type ReadlineProviderMode = 'auto' | 'interactive' | 'line';

/** Options of `createReadlineProvider`. */
export interface ReadlineProviderOptions {
  /** Where answers are read (default: the shared Interface's input, else `process.stdin`). */
  readonly input?: NodeJS.ReadableStream;
  /** Where questions are written (default: the shared Interface's output, else `process.stdout`). */
  readonly output?: NodeJS.WritableStream;
  /** A host's Interface on the same streams, shared with the host's own prompt. */
  readonly readline?: Interface;
  /** `auto` (default), `interactive` or `line`. */
  readonly mode?: ReadlineProviderMode;
  /** Environment for `NO_COLOR`, `FORCE_COLOR` and `TERM` (default: `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /** Milliseconds a lone Esc waits for the rest of a key sequence, when this provider sets up key decoding. */
  readonly escapeCodeTimeout?: number;
  /** The clock of the countdown of questions with a time limit (default: `Date.now`). */
  readonly now?: () => number;
}

/** A terminal question UI: a `UserInteractionProvider` that can be disposed. */
export interface ReadlineProvider extends UserInteractionProvider, Disposable {
  ask(request: AskUserQuestionRequest): Promise<AskUserQuestionAnswer>;
  /** Shows several questions together: a page each and a review in a menu, in order in line mode. */
  askAll(request: AskUserQuestionsRequest): Promise<AskUserQuestionsAnswer>;
  /**
   * Asks the person to approve a tool call: its title, what it touches, the command or the diff,
   * then the choices (number keys, `y` allows once, `n` or Esc rejects once, Ctrl+C dismisses).
   */
  requestPermission(request: PermissionRequest): Promise<PermissionAnswer>;
  readonly capabilities: UserInteractionCapabilities;
  /** The mode questions are shown in. */
  readonly mode: 'interactive' | 'line';
  /** Questions on screen or waiting for their turn. */
  readonly pending: number;
  /** Rejects every pending question with `INPUT_CLOSED` and restores the terminal. Idempotent. */
  dispose(): void;
}

/** What this UI can show: every kind of question, and approvals. */
const CAPABILITIES: UserInteractionCapabilities = Object.freeze({
  ...FULL_CAPABILITIES,
  permissions: true,
});

/**
 * Creates the terminal question UI on `node:readline`: an interactive menu on a terminal,
 * a numbered list read line by line elsewhere. Questions are shown one at a time, in order.
 */
export function createReadlineProvider(options: ReadlineProviderOptions = {}): ReadlineProvider {
  const terminal = new QuestionTerminal(options);
  const { mode } = terminal;
  const now = options.now ?? Date.now;
  /** When an entry's time limit ends, for its countdown. */
  const timing = (entry: QueuedQuestion) =>
    entry.deadline === undefined ? {} : { deadline: entry.deadline, now };
  const questions = new PendingQuestions<
    AskUserQuestionAnswer | AskUserQuestionsAnswer | PermissionAnswer
  >();
  const queue: QueuedQuestion[] = [];
  let widthsLoaded = mode === 'line' || textWidthExact();
  let widthsLoading: Promise<void> | undefined;

  function loadWidths(): Promise<void> {
    widthsLoading ??= loadTextWidth()
      .catch(() => {})
      .then(() => {
        widthsLoaded = true;
      });
    return widthsLoading;
  }
  // Menus measure text exactly; line mode never needs to, and starts faster without it.
  if (!widthsLoaded) void loadWidths();
  // A terminal shows menus: they load meanwhile, as the width tables do. (A failed load fails
  // the question that needs them, in startNext.)
  if (mode === 'interactive' && !screensLoaded()) loadScreens().catch(() => {});

  function startNext(): void {
    // Closed: every question is being withdrawn, none is shown any more.
    if (questions.closed !== undefined) return;
    const entry = queue[0];
    if (entry !== undefined && mode === 'interactive' && !widthsLoaded) {
      // The first menu waits for the width tables (tens of milliseconds, once per process)
      // instead of blocking the event loop while it is already on screen: keys typed then
      // would be taken for keys typed before it appeared. If they cannot be loaded, widths
      // are estimated.
      loadWidths().then(startNext);
      return;
    }
    if (entry !== undefined && !entry.started && !screensLoaded() && needsScreens(entry, mode)) {
      // Its session is not loaded yet (the first menu, set of questions or approval of the
      // process): it is shown once it is, or fails if it cannot be loaded.
      loadScreens().then(startNext, (error: unknown) => {
        if (queue[0] === entry && !entry.started) {
          entry.question.reject(askFailedError(error, 'the terminal could not show the question'));
        }
      });
      return;
    }
    if (entry === undefined || entry.started) {
      // Idle: stop reading, so that a provider nobody asks does not keep the process alive.
      if (entry === undefined) terminal.idle();
      return;
    }
    entry.started = true;
    try {
      startQuestion(entry, terminal, timing(entry));
    } catch (error) {
      // The terminal could not be taken (a closed TTY, a broken output): this question fails,
      // the next one gets its chance.
      entry.question.reject(askFailedError(error, 'the terminal could not show the question'));
    }
  }

  /** A question settled, however: it leaves the queue, and the next one is shown. */
  function settled(entry: QueuedQuestion): void {
    const index = queue.indexOf(entry);
    if (index >= 0) queue.splice(index, 1);
    // The input ended under the question on screen: nobody can answer the others either.
    const reason: unknown = entry.started ? entry.question.signal.reason : undefined;
    if (isUserInteractionError(reason, 'INPUT_CLOSED')) questions.close(reason);
    startNext();
  }

  /** Queues a question (or several) behind those already asked; it is shown in its turn. */
  function enqueue(
    asked: Pick<QueuedQuestion, 'kind' | 'request'>,
    signal: AbortSignal | undefined,
  ): Promise<unknown> {
    const entry = { ...asked, question: undefined as never, started: false } as QueuedQuestion;
    if (questions.closed === undefined && terminal.inputGone()) {
      questions.close(inputClosedError('the input ended'));
    }
    // Withdrawn before it was asked, or nobody can answer: nothing is drawn and no input is read.
    entry.question = questions.open({
      ...(signal !== undefined && { signal }),
      onSettle: () => settled(entry),
    }) as QueuedQuestion['question'];
    const { timeoutMs } = entry.request;
    // The time limit runs from now, while the question waits for its turn too.
    if (typeof timeoutMs === 'number') entry.deadline = now() + timeoutMs;
    if (!entry.question.settled) {
      queue.push(entry);
      startNext();
    }
    return entry.question.promise;
  }

  function ask(request: AskUserQuestionRequest): Promise<AskUserQuestionAnswer> {
    return enqueue({ kind: 'one', request }, request.signal) as Promise<AskUserQuestionAnswer>;
  }

  function askAll(request: AskUserQuestionsRequest): Promise<AskUserQuestionsAnswer> {
    return enqueue({ kind: 'all', request }, request.signal) as Promise<AskUserQuestionsAnswer>;
  }

  function requestPermission(request: PermissionRequest): Promise<PermissionAnswer> {
    return enqueue({ kind: 'permission', request }, request.signal) as Promise<PermissionAnswer>;
  }

  function dispose(): void {
    questions.close(inputClosedError('the terminal question UI was closed'));
    terminal.close();
  }

  return {
    ask,
    askAll,
    requestPermission,
    capabilities: CAPABILITIES,
    mode,
    get pending() {
      return queue.length;
    },
    dispose,
    [Symbol.dispose]: dispose,
  };
}
