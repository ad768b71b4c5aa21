import type { TerminalStyle } from '../text/terminal-style.js';
import { truncateText } from '../text/text-width.js';
import { eraseFrom } from './streamed-text.js';

/** Time as the status line needs it; injectable, so tests can move it by hand. */
export interface StatusClock {
  /** Milliseconds, from any origin. */
  now(): number;
  /** Calls `tick` once after `ms`; returns the function that cancels it. */
  after(ms: number, tick: () => void): () => void;
}

/** The process's own clock, whose timers never keep the process alive. */
export const SYSTEM_CLOCK: StatusClock = {
  now: () => performance.now(),
  after(ms, tick) {
    const timer = setTimeout(tick, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/** How long the model may be silent before the status says that the agent is waiting. */
export const SILENCE_MS = 1_000;
/** How often the elapsed seconds are redrawn. */
const TICK_MS = 1_000;
/** A status that cannot have this many columns is not drawn at all. */
const MIN_COLUMNS = 12;

/** Where the status line is drawn, and with what. */
export interface TurnStatusOptions {
  /** Writes to the terminal as is. */
  write(text: string): void;
  readonly style: TerminalStyle;
  /** The terminal's width. */
  columns(): number;
  /** The column the cursor is at: the status is drawn from there and erased back to it. */
  column(): number;
  readonly clock?: StatusClock;
}

/**
 * The transient line that tells the person the agent is still at work while nothing else moves:
 * "Thinking… 4 s" while a model only reasons, "Waiting for the model… 2 s" after a second of
 * silence, both with "Ctrl+C cancels". It is drawn after the cursor, on the current row, and
 * erased back to the cursor before anything else is written (`clear`), so the transcript never
 * keeps it. For terminals only: a pipe or a log gets none.
 */
export class TurnStatus {
  readonly #options: TurnStatusOptions;
  readonly #clock: StatusClock;
  #kind: 'thinking' | 'waiting' | undefined;
  /** When the wait (or the thinking) being reported began. */
  #since = 0;
  #cancel: (() => void) | undefined;
  /** The column the status was drawn from, or undefined when none is on screen. */
  #drawnAt: number | undefined;

  constructor(options: TurnStatusOptions) {
    this.#options = options;
    this.#clock = options.clock ?? SYSTEM_CLOCK;
  }

  /** The model is asked, or spoke: after a second of silence, say that it is awaited. */
  expect(): string {
    const erase = this.clear();
    this.#since = this.#clock.now();
    this.#schedule(SILENCE_MS, 'waiting');
    return erase;
  }

  /** The model is reasoning: say so at once, and keep saying it while only reasoning streams. */
  thinking(): string {
    if (this.#kind === 'thinking') return '';
    const erase = this.clear();
    this.#since = this.#clock.now();
    this.#kind = 'thinking';
    this.#draw();
    return erase;
  }

  /** Nothing is awaited from the model (a tool runs, the turn ended): the text that erases the status. */
  clear(): string {
    this.#cancel?.();
    this.#cancel = undefined;
    this.#kind = undefined;
    const at = this.#drawnAt;
    this.#drawnAt = undefined;
    return at === undefined ? '' : eraseFrom(at);
  }

  #schedule(ms: number, kind: 'thinking' | 'waiting'): void {
    this.#cancel?.();
    this.#cancel = this.#clock.after(ms, () => {
      this.#cancel = undefined;
      this.#kind = kind;
      this.#draw();
    });
  }

  #draw(): void {
    const kind = this.#kind ?? 'waiting';
    const { style } = this.#options;
    const seconds = Math.floor((this.#clock.now() - this.#since) / 1_000);
    const column = this.#drawnAt ?? this.#options.column();
    const lead = column > 0 ? ' ' : '';
    const room = this.#options.columns() - 1 - column - lead.length;
    if (room >= MIN_COLUMNS) {
      const what = kind === 'thinking' ? 'Thinking…' : 'Waiting for the model…';
      const text = `${what} ${seconds} s ${style.symbols.separator} Ctrl+C cancels`;
      this.#options.write(`${eraseFrom(column)}${lead}${style.dim(truncateText(text, room))}`);
      this.#drawnAt = column;
    }
    this.#schedule(TICK_MS, kind);
  }
}
