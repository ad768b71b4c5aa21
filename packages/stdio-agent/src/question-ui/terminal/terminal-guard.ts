import type { Interface } from 'node:readline';
import { type GuardState, setUpGuard, takeHeld, undoAll } from './guard-setup.js';
import type { KeyPress } from './key.js';
import { onSuspend } from './suspend.js';
import { HIDE_CURSOR, PASTE_OFF, PASTE_ON, SHOW_CURSOR } from './terminal-modes.js';
import {
  outputBroken,
  type TerminalInput,
  type TerminalOutput,
  writeLast,
} from './terminal-streams.js';

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
    setUpGuard(options, undo, state);
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
