import { createInterface, type Interface } from 'node:readline';
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
import type { ScreenApproval } from './approval/approval-session.js';
import type { BatchQuestion } from './batch/batch-session.js';
import { type LineReader, lineReaderFor } from './line-mode/line-reader.js';
import { startLineSession } from './line-mode/line-session.js';
import type { ScreenQuestion } from './question-session.js';
import {
  inputEnded,
  type TerminalInput,
  type TerminalOutput,
} from './terminal/terminal-streams.js';

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

/** A question (or several asked together) of this UI: on screen, or waiting for its turn. */
type Entry = { started: boolean; deadline?: number } & (
  | { readonly kind: 'one'; readonly request: AskUserQuestionRequest; question: ScreenQuestion }
  | { readonly kind: 'all'; readonly request: AskUserQuestionsRequest; question: BatchQuestion }
  | { readonly kind: 'permission'; readonly request: PermissionRequest; question: ScreenApproval }
);

type Screens = typeof import('./screens.js');

/** The sessions other than one question in line mode, once loaded (once per process). */
let screens: Screens | undefined;
let screensLoading: Promise<Screens> | undefined;

function loadScreens(): Promise<Screens> {
  // A failed load fails the question that waited for it, and is tried again at the next one.
  screensLoading ??= import('./screens.js').then(
    (module) => {
      screens = module;
      return module;
    },
    (error: unknown) => {
      screensLoading = undefined;
      throw error;
    },
  );
  return screensLoading;
}

/** What this UI can show: every kind of question, and approvals. */
const CAPABILITIES: UserInteractionCapabilities = Object.freeze({
  ...FULL_CAPABILITIES,
  permissions: true,
});

function pickMode(
  requested: ReadlineProviderMode,
  input: TerminalInput,
  output: TerminalOutput,
  readline: Interface | undefined,
  env: NodeJS.ProcessEnv,
): 'interactive' | 'line' {
  if (requested !== 'auto') return requested;
  const terminal =
    input.isTTY === true &&
    typeof input.setRawMode === 'function' &&
    output.isTTY === true &&
    env.TERM !== 'dumb';
  return terminal && (readline === undefined || readline.terminal) ? 'interactive' : 'line';
}

function isClosed(readline: Interface | undefined): boolean {
  return (readline as { closed?: boolean } | undefined)?.closed === true;
}

/**
 * Creates the terminal question UI on `node:readline`: an interactive menu on a terminal,
 * a numbered list read line by line elsewhere. Questions are shown one at a time, in order.
 */
export function createReadlineProvider(options: ReadlineProviderOptions = {}): ReadlineProvider {
  const shared = options.readline;
  const streams = shared as { input?: NodeJS.ReadableStream; output?: NodeJS.WritableStream };
  const input = (options.input ?? streams?.input ?? process.stdin) as TerminalInput;
  const output = (options.output ?? streams?.output ?? process.stdout) as TerminalOutput;
  const env = options.env ?? process.env;
  const mode = pickMode(options.mode ?? 'auto', input, output, shared, env);
  const now = options.now ?? Date.now;
  /** When an entry's time limit ends, for its countdown. */
  const timing = (entry: Entry) =>
    entry.deadline === undefined ? {} : { deadline: entry.deadline, now };
  const questions = new PendingQuestions<
    AskUserQuestionAnswer | AskUserQuestionsAnswer | PermissionAnswer
  >();
  const queue: Entry[] = [];
  let ownReadline: Interface | undefined;
  let reader: LineReader | undefined;
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
  if (mode === 'interactive' && screens === undefined) loadScreens().catch(() => {});

  function lineReader(): LineReader {
    if (reader !== undefined) return reader;
    if (shared !== undefined) {
      reader = lineReaderFor(shared);
    } else {
      ownReadline = createInterface({
        input,
        terminal: false,
        crlfDelay: Number.POSITIVE_INFINITY,
      });
      reader = lineReaderFor(ownReadline);
    }
    return reader;
  }

  function inputGone(): boolean {
    if (mode === 'interactive') return inputEnded(input) || isClosed(shared);
    // An Interface made on an input that already ended would never close: do not make one.
    if (reader === undefined && shared === undefined && inputEnded(input)) return true;
    return lineReader().exhausted;
  }

  /** Shows an approval once its view is ready (an edit's diff is computed first). */
  function startApproval(entry: Extract<Entry, { kind: 'permission' }>, screens: Screens): void {
    const { question } = entry;
    const { startApprovalSession, startLineApprovalSession } = screens;
    screens.viewOf(entry.request).then(
      (view) => {
        if (question.settled) return;
        try {
          if (mode === 'interactive') startApprovalSession(question, view, screenTerminal(entry));
          else startLineApprovalSession(question, view, lineTerminal(entry));
        } catch (error) {
          question.reject(askFailedError(error, 'the terminal could not show the approval'));
        }
      },
      (error: unknown) => question.reject(askFailedError(error, 'the approval could not be shown')),
    );
  }

  /** The terminal a menu, a set of questions or an approval is drawn on. */
  function screenTerminal(entry: Entry) {
    return {
      input,
      output,
      readline: shared,
      env,
      escapeCodeTimeout: options.escapeCodeTimeout,
      ...timing(entry),
    };
  }

  /** What a question in line mode reads and writes; the input is read again from here on. */
  function lineTerminal(entry: Entry) {
    const lines = lineReader();
    if (ownReadline !== undefined && !isClosed(ownReadline)) ownReadline.resume();
    return { reader: lines, output, env, keyboard: input.isTTY === true, ...timing(entry) };
  }

  /** Whether `entry` is shown by a session of `./screens.js` (all but one question in line mode). */
  function needsScreens(entry: Entry): boolean {
    return mode === 'interactive' || entry.kind !== 'one';
  }

  function startSession(entry: Entry): void {
    if (!needsScreens(entry)) {
      startLineSession(
        entry.question as ScreenQuestion,
        entry.request as AskUserQuestionRequest,
        lineTerminal(entry),
      );
      return;
    }
    const loaded = screens as Screens;
    if (entry.kind === 'permission') {
      startApproval(entry, loaded);
      return;
    }
    if (mode === 'interactive') {
      const terminal = screenTerminal(entry);
      if (entry.kind === 'one')
        loaded.startInteractiveSession(entry.question, entry.request, terminal);
      else loaded.startBatchSession(entry.question, entry.request, terminal);
      return;
    }
    if (entry.kind === 'all')
      loaded.startLineBatchSession(entry.question, entry.request, lineTerminal(entry));
  }

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
    if (entry !== undefined && !entry.started && screens === undefined && needsScreens(entry)) {
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
      if (entry === undefined && ownReadline !== undefined && !isClosed(ownReadline)) {
        ownReadline.pause();
      }
      return;
    }
    entry.started = true;
    try {
      startSession(entry);
    } catch (error) {
      // The terminal could not be taken (a closed TTY, a broken output): this question fails,
      // the next one gets its chance.
      entry.question.reject(askFailedError(error, 'the terminal could not show the question'));
    }
  }

  /** A question settled, however: it leaves the queue, and the next one is shown. */
  function settled(entry: Entry): void {
    const index = queue.indexOf(entry);
    if (index >= 0) queue.splice(index, 1);
    // The input ended under the question on screen: nobody can answer the others either.
    const reason: unknown = entry.started ? entry.question.signal.reason : undefined;
    if (isUserInteractionError(reason, 'INPUT_CLOSED')) questions.close(reason);
    startNext();
  }

  /** Queues a question (or several) behind those already asked; it is shown in its turn. */
  function enqueue(entry: Entry, signal: AbortSignal | undefined): Promise<unknown> {
    if (questions.closed === undefined && inputGone()) {
      questions.close(inputClosedError('the input ended'));
    }
    // Withdrawn before it was asked, or nobody can answer: nothing is drawn and no input is read.
    entry.question = questions.open({
      ...(signal !== undefined && { signal }),
      onSettle: () => settled(entry),
    }) as Entry['question'];
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
    const entry: Entry = { kind: 'one', request, question: undefined as never, started: false };
    return enqueue(entry, request.signal) as Promise<AskUserQuestionAnswer>;
  }

  function askAll(request: AskUserQuestionsRequest): Promise<AskUserQuestionsAnswer> {
    const entry: Entry = { kind: 'all', request, question: undefined as never, started: false };
    return enqueue(entry, request.signal) as Promise<AskUserQuestionsAnswer>;
  }

  function requestPermission(request: PermissionRequest): Promise<PermissionAnswer> {
    const entry: Entry = {
      kind: 'permission',
      request,
      question: undefined as never,
      started: false,
    };
    return enqueue(entry, request.signal) as Promise<PermissionAnswer>;
  }

  function dispose(): void {
    questions.close(inputClosedError('the terminal question UI was closed'));
    ownReadline?.close();
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
