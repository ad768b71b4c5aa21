import { emitKeypressEvents, type Interface } from 'node:readline';
import { captureEvent, type EventSource } from './capture-event.js';
import { ENDING_SIGNALS } from './ending-signals.js';
import type { Key, KeyPress } from './key.js';
import { afterPendingInput } from './pending-input.js';
import { onSuspend, suspendByKey } from './suspend.js';
import {
  outputBroken,
  type TerminalInput,
  type TerminalOutput,
  writeLast,
} from './terminal-streams.js';

const HIDE_CURSOR = '\u001b[?25l';
const SHOW_CURSOR = '\u001b[?25h';
const PASTE_ON = '\u001b[?2004h';
const PASTE_OFF = '\u001b[?2004l';

/** What a question needs from the terminal while it is on screen. */
export interface TerminalGuardOptions {
  readonly input: TerminalInput;
  readonly output: TerminalOutput;
  /** A host's Interface on the same streams: it must not see the question's keys. */
  readonly readline?: Interface | undefined;
  /** How long a lone Esc waits for the rest of an escape sequence (first use of the input only). */
  readonly escapeCodeTimeout?: number | undefined;
  /**
   * The keys of one input chunk, in order: a chunk is decoded into one key per character, and
   * acting on them together lets a paste be drawn once rather than once per character.
   */
  onKeys(presses: readonly KeyPress[]): void;
  onResize(): void;
  /** The input ended, failed, or the shared Interface closed. */
  onInputEnd(cause?: unknown): void;
  /**
   * A signal that ends the program arrived (SIGTERM; or SIGINT, SIGHUP or SIGQUIT that nobody
   * else handles): settle now; the signal is raised again afterwards if nobody else handles it.
   */
  onTerminate(signal: NodeJS.Signals): void;
  /** The output failed (EPIPE, EIO): nothing more can be drawn; settle now. */
  onOutputError(error: unknown): void;
  /** What to write before the process is suspended (Ctrl+Z, SIGTSTP): the screen erased. */
  suspendText(): string;
  /** The process continued after a suspend: draw the whole question again. */
  onResume(): void;
  /** What to write when the process exits with the question still on screen. */
  exitText(): string;
}

/** The terminal, held by one question. */
export interface TerminalGuard {
  write(text: string): void;
  /** Writes `text` (the last frame) and gives the terminal back exactly as it was. */
  release(text: string): void;
}

/** Throws away what was typed before the question appeared: it is not its answer. */
function discardTypeAhead(input: TerminalInput): void {
  if ((input.readableLength ?? 0) === 0 || typeof input.read !== 'function') return;
  while (input.read() !== null) {
    // Reading empties the stream's buffer; the text is dropped on purpose.
  }
}

/** Runs every step, last first, even when one fails: a restore must go as far as it can. */
function undoAll(steps: (() => void)[]): void {
  for (const step of steps.reverse()) {
    try {
      step();
    } catch {
      // A stream that is already gone cannot be restored; the other steps still can.
    }
  }
  steps.length = 0;
}

interface GuardState {
  released: boolean;
  exited: boolean;
  /** Keys are taken from now on; until then frames are held back, so none shows too early. */
  ready: boolean;
  /** Frames written before keys are taken, drawn together once they are. */
  held: string;
  /** Called once, when keys are taken: the frames held back meanwhile are drawn. */
  onReady?: () => void;
  /** The output's failure reached the question (its `error` event came). */
  errorSeen?: boolean;
}

/** What was held back, taken out: written before the next text, which the screen needs it under. */
function takeHeld(state: GuardState): string {
  const text = state.held;
  state.held = '';
  return text;
}

function setUp(options: TerminalGuardOptions, undo: (() => void)[], state: GuardState): void {
  const { input, output, readline } = options;
  const setRaw = typeof input.setRawMode === 'function' && input.isRaw !== true;
  if (setRaw) {
    input.setRawMode?.(true);
    undo.push(() => input.setRawMode?.(false));
  }
  const wasFlowing = input.readableFlowing === true;
  undo.push(() => {
    if (!wasFlowing) input.pause();
  });

  discardTypeAhead(input);
  if (wasFlowing) {
    // Someone was reading already: nothing typed earlier can still be waiting.
    state.ready = true;
  } else {
    // Nobody was reading, so the terminal kept what was typed meanwhile: it arrives within
    // the next turns of the event loop, and is dropped with them.
    undo.push(
      afterPendingInput(() => {
        state.ready = true;
        state.onReady?.();
      }),
    );
  }

  const timeout = options.escapeCodeTimeout;
  emitKeypressEvents(
    input,
    timeout === undefined ? undefined : ({ escapeCodeTimeout: timeout } as unknown as Interface),
  );
  // Keys decoded from one chunk are gathered between the chunk's first and last `data`
  // listeners; a key decoded later (a lone Esc, after its time-out) goes alone.
  let chunk: KeyPress[] | undefined;
  const deliver = (presses: readonly KeyPress[]): void => {
    if (presses.length > 0 && state.ready && !state.released) options.onKeys(presses);
  };
  const onKeypress = (text: string | undefined, key: Key | undefined): void => {
    if (!state.ready || state.released) return;
    if (key?.ctrl === true && key.name === 'z' && key.meta !== true) {
      // Raw mode turned the terminal's own Ctrl+Z into a key: it suspends, as in cooked mode.
      suspendByKey();
      return;
    }
    const press = { text, key: key ?? { sequence: text } };
    if (chunk === undefined) deliver([press]);
    else chunk.push(press);
  };
  const onChunkStart = (): void => {
    if (chunk !== undefined) deliver(chunk);
    chunk = [];
  };
  const onChunkEnd = (): void => {
    const presses = chunk ?? [];
    chunk = undefined;
    deliver(presses);
  };
  // The listener keeps the keypress decoder running; the capture makes the question its only
  // recipient, so a host's Interface neither echoes the keys nor takes Enter as a line.
  input.on('keypress', onKeypress);
  undo.push(() => input.removeListener('keypress', onKeypress));
  undo.push(captureEvent(input as unknown as EventSource, 'keypress', onKeypress));
  // Around the decoder's own `data` listener, which exists once a keypress listener does.
  input.prependListener('data', onChunkStart);
  input.on('data', onChunkEnd);
  undo.push(() => {
    input.removeListener('data', onChunkStart);
    input.removeListener('data', onChunkEnd);
  });

  const onResize = (): void => options.onResize();
  if (readline?.terminal === true) {
    // The Interface redraws its prompt on resize, right over the question.
    undo.push(captureEvent(output as unknown as EventSource, 'resize', onResize));
  } else {
    output.on('resize', onResize);
    undo.push(() => output.removeListener('resize', onResize));
  }

  // First in line: the question settles before a host's own listener reacts to the failure.
  const onOutputError = (error: unknown): void => {
    state.errorSeen = true;
    options.onOutputError(error);
  };
  output.prependListener('error', onOutputError);
  undo.push(() => output.removeListener('error', onOutputError));

  const onEnd = (): void => options.onInputEnd();
  const onError = (error: unknown): void => options.onInputEnd(error);
  input.on('end', onEnd);
  input.on('close', onEnd);
  input.on('error', onError);
  undo.push(() => {
    input.removeListener('end', onEnd);
    input.removeListener('close', onEnd);
    input.removeListener('error', onError);
  });
  if (readline !== undefined) {
    readline.on('close', onEnd);
    undo.push(() => readline.removeListener('close', onEnd));
  }

  const onSignal = (signal: NodeJS.Signals): void => {
    // A host that handles SIGINT, SIGHUP or SIGQUIT itself decides what they mean (a REPL
    // cancels its turn, which withdraws this question); alone, we stand in for their default.
    if (signal !== 'SIGTERM' && process.listenerCount(signal) > 1) return;
    options.onTerminate(signal);
    if (process.listenerCount(signal) > 0) return;
    // The signal's default action ends the process with no `exit` event and without Node's
    // own reset of the terminal: raw mode goes off now, even when a shared Interface had
    // switched it on, since nobody is left to switch it off.
    try {
      if (input.isRaw === true) input.setRawMode?.(false);
    } catch {
      // The terminal is gone.
    }
    // Restored; now let the signal do what it would have done without us.
    process.kill(process.pid, signal);
  };
  // Exit listeners must be synchronous: restore now, with no second chance.
  const onExit = (): void => {
    if (state.released || state.exited) return;
    state.exited = true;
    if (!outputBroken(output))
      output.write(takeHeld(state) + options.exitText() + PASTE_OFF + SHOW_CURSOR);
    if (setRaw) input.setRawMode?.(false);
  };
  for (const signal of ENDING_SIGNALS) process.on(signal, onSignal);
  process.on('exit', onExit);
  undo.push(() => {
    for (const signal of ENDING_SIGNALS) process.removeListener(signal, onSignal);
    process.removeListener('exit', onExit);
  });

  input.resume();
}

/**
 * Takes the terminal for one question: raw mode, hidden cursor, bracketed paste, every key
 * to the question only, and a restore on release, on a signal that ends the program, on a
 * failing output, and on process exit; a suspend (Ctrl+Z, SIGTSTP) gives the terminal back
 * until the process continues, then the question is drawn again. Process listeners exist only while the question is on screen. Throws, having undone everything,
 * when the terminal cannot be taken.
 *
 * Nothing is drawn before the question takes keys (keys that arrive sooner are dropped as typed
 * before it): what is written meanwhile is held back and drawn then, in one write. A person, or a
 * test driving a real terminal, who sees the question can type its answer.
 */
export function guardTerminal(options: TerminalGuardOptions): TerminalGuard {
  const { input, output } = options;
  const undo: (() => void)[] = [];
  const state: GuardState = { released: false, exited: false, ready: false, held: '' };
  try {
    setUp(options, undo, state);
  } catch (error) {
    undoAll(undo);
    throw error;
  }
  let entered = false;
  // The held frames could not be drawn: the screen shows nothing of the question.
  let neverDrawn = false;
  const draw = (text: string): void => {
    if (outputBroken(output)) return;
    // The first frame carries the mode changes, so that each frame is a single write.
    output.write(entered ? text : HIDE_CURSOR + PASTE_ON + text);
    entered = true;
  };
  state.onReady = () => {
    if (state.held === '' || state.released || state.exited) return;
    try {
      draw(takeHeld(state));
    } catch (error) {
      // As a failing first frame does when it is drawn at once: the question fails.
      neverDrawn = true;
      options.onOutputError(error);
    }
  };
  undo.push(
    onSuspend({
      suspend() {
        if (state.released || state.exited) return;
        try {
          output.write(takeHeld(state) + options.suspendText() + PASTE_OFF + SHOW_CURSOR);
        } catch {
          // The output is gone; the input is still given back.
        }
        if (input.isRaw === true) input.setRawMode?.(false);
      },
      resume() {
        if (state.released || state.exited) return;
        if (typeof input.setRawMode === 'function' && input.isRaw !== true) input.setRawMode(true);
        // The next frame carries the mode changes again.
        entered = false;
        options.onResume();
      },
    }),
  );
  return {
    write(text) {
      if (state.released || state.exited || text === '') return;
      if (!state.ready) state.held += text;
      else draw(text);
    },
    release(text) {
      if (state.released) return;
      state.released = true;
      try {
        // Settled before it took keys: drawn and collapsed in the one write.
        const last = takeHeld(state) + text;
        const shown = !state.exited && !neverDrawn && !outputBroken(output);
        // The question has ended: a failure of this write, or of one before it, reported
        // after now is only handled, never uncaught.
        const ignore = (): void => {};
        output.on('error', ignore);
        writeLast(output, shown ? last + PASTE_OFF + SHOW_CURSOR : '', ignore, state.errorSeen);
      } catch {
        // The output is gone: nothing can be drawn, but the input is still given back below.
      } finally {
        undoAll(undo);
      }
    },
  };
}
