import type { Interface } from 'node:readline';
import {
  askFailedError,
  inputClosedError,
  type PendingQuestion,
} from 'dsh-user-interaction/provider';
import type { TerminalStyle } from '../../text/terminal-style.js';
import { truncateText } from '../../text/text-width.js';
import { whenWithdrawn } from '../question-session.js';
import type { UnansweredEnding } from '../summary-line.js';
import { countdownLine, nextTick } from '../terminal/countdown.js';
import { FrameWriter } from '../terminal/frame-writer.js';
import type { KeyPress } from '../terminal/key.js';
import { guardTerminal, type TerminalGuard } from '../terminal/terminal-guard.js';
import type { TerminalInput, TerminalOutput } from '../terminal/terminal-streams.js';
import type { ScreenSize } from './render-menu.js';

/** The terminal an interactive question runs on. */
export interface InteractiveTerminal {
  readonly input: TerminalInput;
  readonly output: TerminalOutput;
  readonly readline: Interface | undefined;
  readonly env: NodeJS.ProcessEnv;
  readonly escapeCodeTimeout: number | undefined;
  /** When the question's time limit ends (by `now`): a countdown line is drawn under it. */
  readonly deadline?: number;
  /** The clock of `deadline` (default: `Date.now`). */
  readonly now?: () => number;
}

/**
 * What one interactive screen is: its state, changed by keys (pure), drawn by `render` (pure),
 * and what each outcome means. The runner does the rest: the terminal, frames, the end.
 */
export interface Screen<State, Outcome, Ending> {
  readonly initial: State;
  readonly style: TerminalStyle;
  /** The keys of one input chunk, applied in order; an outcome ends the screen. */
  keys(
    state: State,
    presses: readonly KeyPress[],
  ): { readonly state: State; readonly outcome?: Outcome };
  /** The frame for a terminal of `size`, and the state with what the layout decided. */
  render(
    state: State,
    size: ScreenSize,
  ): { readonly lines: readonly string[]; readonly state: State };
  /** The lines the screen collapses to, within `width` columns. */
  summary(state: State, ending: Ending | UnansweredEnding, width: number): readonly string[];
  /** How an outcome ends the screen, and what then settles the question. */
  conclude(state: State, outcome: Outcome): { readonly ending: Ending; settle(): void };
}

const DEFAULT_SIZE: ScreenSize = { columns: 80, rows: 24 };

/**
 * Runs a screen on the terminal for a pending question: takes the terminal, draws a frame per
 * input chunk, erases it over a suspend and draws it again on resume, and when it ends (an
 * outcome, the input ending, a signal, a failure of the input or output, a withdrawal) collapses to its summary lines, gives the terminal back, then settles the
 * question. Throws, having given the terminal back, when nothing can be shown at all.
 */
export function runScreen<State, Outcome, Ending>(
  question: PendingQuestion<unknown>,
  screen: Screen<State, Outcome, Ending>,
  terminal: InteractiveTerminal,
): void {
  const { output } = terminal;
  const frame = new FrameWriter();
  let state = screen.initial;
  let settled = false;

  function size(): ScreenSize {
    const { columns, rows } = output;
    return columns && rows ? { columns, rows } : DEFAULT_SIZE;
  }

  const { deadline } = terminal;
  const now = terminal.now ?? Date.now;
  let ticking: ReturnType<typeof setTimeout> | undefined;

  function draw(): string {
    const full = size();
    if (deadline === undefined) {
      const drawn = screen.render(state, full);
      state = drawn.state;
      return frame.render(drawn.lines);
    }
    // The countdown takes the last row, under the screen.
    const drawn = screen.render(state, { columns: full.columns, rows: Math.max(1, full.rows - 1) });
    state = drawn.state;
    const line = truncateText(countdownLine(deadline, now()), Math.max(1, full.columns - 1));
    return frame.render([...drawn.lines, screen.style.dim(line)]);
  }

  /** Draws the countdown again at each second of time left, until the screen ends. */
  function tick(): void {
    const wait = deadline === undefined ? undefined : nextTick(deadline, now());
    if (wait === undefined || settled) return;
    ticking = setTimeout(() => {
      ticking = undefined;
      safely(() => guard.write(draw()));
      tick();
    }, wait);
    ticking.unref?.();
  }

  function collapsed(ending: Ending | UnansweredEnding): string {
    const lines = screen.summary(state, ending, size().columns - 1);
    return `${frame.clear()}${lines.map((line) => `${line}\r\n`).join('')}`;
  }

  /** Collapses the screen to its summary and gives the terminal back, then settles the question. */
  function finish(ending: Ending | UnansweredEnding, settle: () => void = () => {}): void {
    if (settled) return;
    settled = true;
    stopListening();
    if (ticking !== undefined) clearTimeout(ticking);
    let text: string;
    try {
      text = collapsed(ending);
    } catch {
      // Whatever failed, the terminal is given back, with at least the screen erased.
      text = frame.clear();
    }
    guard.release(text);
    settle();
  }

  /** Runs a step of the screen; a failure ends it with ASK_FAILED, the terminal restored. */
  function safely(step: () => void): void {
    if (settled) return;
    try {
      step();
    } catch (error) {
      const failure = askFailedError(error, 'the terminal question failed');
      finish({ kind: 'interrupted' }, () => question.reject(failure));
    }
  }

  /** The keys of one input chunk: applied in order, then drawn once. */
  function onKeys(presses: readonly KeyPress[]): void {
    safely(() => {
      const next = screen.keys(state, presses);
      state = next.state;
      if (next.outcome === undefined) {
        guard.write(draw());
        return;
      }
      const { ending, settle } = screen.conclude(state, next.outcome);
      finish(ending, settle);
    });
  }

  const guard: TerminalGuard = guardTerminal({
    input: terminal.input,
    output,
    readline: terminal.readline,
    escapeCodeTimeout: terminal.escapeCodeTimeout,
    onKeys,
    onResize() {
      safely(() => {
        frame.invalidate(size().columns);
        guard.write(draw());
      });
    },
    onInputEnd(cause) {
      const closed = inputClosedError('the input ended', cause);
      finish({ kind: 'input-closed' }, () => question.withdraw(closed));
    },
    onOutputError(error) {
      const failure = askFailedError(error, 'the terminal output failed');
      finish({ kind: 'interrupted' }, () => question.reject(failure));
    },
    suspendText: () => frame.clear(),
    onResume() {
      // Erased before the stop: drawn whole again where the cursor is now.
      safely(() => guard.write(draw()));
    },
    onTerminate(signal) {
      const closed = inputClosedError(`the program is terminating (${signal})`);
      finish({ kind: 'interrupted' }, () => question.withdraw(closed));
    },
    exitText: () => collapsed({ kind: 'interrupted' }),
  });
  // Withdrawn while on screen: only the summary stays.
  const stopListening = whenWithdrawn(question, (ending) => finish(ending));
  try {
    guard.write(draw());
    tick();
  } catch (error) {
    // Nothing usable reached the screen: give the terminal back and let the caller know.
    settled = true;
    stopListening();
    guard.release(frame.clear());
    throw error;
  }
}
