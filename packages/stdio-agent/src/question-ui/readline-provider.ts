import { createInterface, type Interface } from 'node:readline';
import type {
  AskUserQuestionAnswer,
  AskUserQuestionRequest,
  UserInteractionCapabilities,
  UserInteractionProvider,
} from 'dsh-user-interaction';
import { isUserInteractionError, UserInteractionError } from 'dsh-user-interaction';
import { loadTextWidth, textWidthExact } from '../text/text-width.js';
import { type LineReader, lineReaderFor } from './line-mode/line-reader.js';
import { startLineSession } from './line-mode/line-session.js';
import { startInteractiveSession } from './menu/interactive-session.js';
import type { QuestionSession } from './question-session.js';
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
}

/** A terminal question UI: a `UserInteractionProvider` that can be disposed. */
export interface ReadlineProvider extends UserInteractionProvider, Disposable {
  ask(request: AskUserQuestionRequest): Promise<AskUserQuestionAnswer>;
  readonly capabilities: UserInteractionCapabilities;
  /** The mode questions are shown in. */
  readonly mode: 'interactive' | 'line';
  /** Questions on screen or waiting for their turn. */
  readonly pending: number;
  /** Rejects every pending question with `INPUT_CLOSED` and restores the terminal. Idempotent. */
  dispose(): void;
}

interface Entry {
  readonly request: AskUserQuestionRequest;
  readonly resolve: (answer: AskUserQuestionAnswer) => void;
  readonly reject: (error: unknown) => void;
  readonly onAbort: () => void;
  session: QuestionSession | undefined;
}

const CAPABILITIES: UserInteractionCapabilities = Object.freeze({
  freeForm: true,
  customAnswer: true,
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

function abortedError(signal: AbortSignal): UserInteractionError {
  return new UserInteractionError(
    'ASK_ABORTED',
    'The question was withdrawn before the person answered.',
    { cause: signal.reason },
  );
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
  const queue: Entry[] = [];
  let closed: UserInteractionError | undefined;
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

  function startSession(request: AskUserQuestionRequest): QuestionSession {
    if (mode === 'interactive') {
      return startInteractiveSession(request, {
        input,
        output,
        readline: shared,
        env,
        escapeCodeTimeout: options.escapeCodeTimeout,
      });
    }
    const lines = lineReader();
    if (ownReadline !== undefined && !isClosed(ownReadline)) ownReadline.resume();
    return startLineSession(request, { reader: lines, output, env, echo: input.isTTY !== true });
  }

  function settle(entry: Entry): void {
    entry.request.signal?.removeEventListener('abort', entry.onAbort);
    const index = queue.indexOf(entry);
    if (index >= 0) queue.splice(index, 1);
  }

  function startNext(): void {
    const entry = queue[0];
    if (entry !== undefined && mode === 'interactive' && !widthsLoaded) {
      // The first menu waits for the width tables (tens of milliseconds, once per process)
      // instead of blocking the event loop while it is already on screen: keys typed then
      // would be taken for keys typed before it appeared. If they cannot be loaded, widths
      // are estimated.
      loadWidths().then(startNext);
      return;
    }
    if (entry === undefined || entry.session !== undefined) {
      // Idle: stop reading, so that a provider nobody asks does not keep the process alive.
      if (entry === undefined && ownReadline !== undefined && !isClosed(ownReadline)) {
        ownReadline.pause();
      }
      return;
    }
    let session: QuestionSession;
    try {
      session = startSession(entry.request);
    } catch (error) {
      // The terminal could not be taken (a closed TTY, a broken output): this question fails,
      // the next one gets its chance.
      settle(entry);
      entry.reject(
        new UserInteractionError('ASK_FAILED', 'The terminal could not show the question.', {
          cause: error,
        }),
      );
      startNext();
      return;
    }
    entry.session = session;
    session.result.then(
      (answer) => {
        settle(entry);
        entry.resolve(answer);
        startNext();
      },
      (error: unknown) => {
        settle(entry);
        entry.reject(error);
        if (isUserInteractionError(error, 'INPUT_CLOSED')) close(error);
        startNext();
      },
    );
  }

  /** Ends every question now and every later ask with `error`. */
  function close(error: UserInteractionError): void {
    closed ??= error;
    for (const entry of [...queue]) {
      if (entry.session !== undefined) {
        entry.session.end({ code: 'INPUT_CLOSED', message: error.message });
      } else {
        settle(entry);
        entry.reject(new UserInteractionError('INPUT_CLOSED', error.message, { cause: error }));
      }
    }
  }

  function ask(request: AskUserQuestionRequest): Promise<AskUserQuestionAnswer> {
    const { signal } = request;
    // Withdrawn before it was asked: nothing is drawn and no input is read.
    if (signal?.aborted) return Promise.reject(abortedError(signal));
    if (closed === undefined && inputGone()) {
      closed = new UserInteractionError('INPUT_CLOSED', 'The input ended: nobody can answer.');
    }
    if (closed !== undefined) {
      return Promise.reject(new UserInteractionError('INPUT_CLOSED', closed.message));
    }
    return new Promise((resolve, reject) => {
      const entry: Entry = {
        request,
        resolve,
        reject,
        session: undefined,
        onAbort() {
          const aborted = signal as AbortSignal;
          if (entry.session !== undefined) {
            entry.session.end({
              code: 'ASK_ABORTED',
              timedOut: isUserInteractionError(aborted.reason, 'ASK_TIMEOUT'),
              cause: aborted.reason,
            });
          } else {
            // Still waiting its turn: it leaves the queue and the question on screen stays.
            settle(entry);
            reject(abortedError(aborted));
          }
        },
      };
      signal?.addEventListener('abort', entry.onAbort, { once: true });
      queue.push(entry);
      startNext();
    });
  }

  function dispose(): void {
    if (closed === undefined) {
      close(new UserInteractionError('INPUT_CLOSED', 'The terminal question UI was closed.'));
    }
    ownReadline?.close();
  }

  return {
    ask,
    capabilities: CAPABILITIES,
    mode,
    get pending() {
      return queue.length;
    },
    dispose,
    [Symbol.dispose]: dispose,
  };
}
