import { emitKeypressEvents, type Interface } from 'node:readline';
import { captureEvent, type EventSource } from './capture-event.js';
import { ENDING_SIGNALS } from './ending-signals.js';
import type { Key, KeyPress } from './key.js';
import { afterPendingInput } from './pending-input.js';
import { suspendByKey } from './suspend.js';
import type { TerminalGuardOptions } from './terminal-guard.js';
import { PASTE_OFF, SHOW_CURSOR } from './terminal-modes.js';
import { outputBroken, type TerminalInput } from './terminal-streams.js';

/** Throws away what was typed before the question appeared: it is not its answer. */
function discardTypeAhead(input: TerminalInput): void {
  if ((input.readableLength ?? 0) === 0 || typeof input.read !== 'function') return;
  while (input.read() !== null) {
    // Reading empties the stream's buffer; the text is dropped on purpose.
  }
}

/** Runs every step, last first, even when one fails: a restore must go as far as it can. */
export function undoAll(steps: (() => void)[]): void {
  for (const step of steps.reverse()) {
    try {
      step();
    } catch {
      // A stream that is already gone cannot be restored; the other steps still can.
    }
  }
  steps.length = 0;
}

/** What the guard of one question knows, shared by its setup and its frames. */
export interface GuardState {
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
export function takeHeld(state: GuardState): string {
  const text = state.held;
  state.held = '';
  return text;
}

/**
 * Takes the input for one question: raw mode, its keys to the question only (a chunk at a
 * time), resizes, the end of the input, a failing output, the signals that end the program and
 * the process's exit. Each step pushes its undo on `undo`; `undoAll` gives everything back.
 */
export function setUpGuard(
  options: TerminalGuardOptions,
  undo: (() => void)[],
  state: GuardState,
): void {
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
