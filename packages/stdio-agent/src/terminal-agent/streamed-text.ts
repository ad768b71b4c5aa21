import { neutralizeText } from '../text/neutralize-text.js';
import { textWidth } from '../text/text-width.js';

const TAB_STOP = 4;

/** Moves the cursor to `column` of its row and erases the rest of the row. */
export function eraseFrom(column: number): string {
  return `\r${column > 0 ? `\u001b[${column}C` : ''}\u001b[K`;
}

/** How `StreamedText` wraps a word that reaches the right edge. */
export type WrapMode =
  /** Text is written as it arrives; a word that grows past the edge is erased and redrawn. */
  | 'redraw'
  /**
   * No escape sequence at all (plain mode): each word is held back until it ends (a space, a
   * line break, a tool call or the end of the turn), then written on the row it fits on.
   */
  | 'hold';

/**
 * The assistant's text, delta by delta, made inert for the terminal. It remembers the
 * column across deltas, so that tabs line up and a `\r\n` split between two deltas stays
 * one line break; given a width, it wraps at spaces (see `WrapMode`). A pipe (no width) gets
 * the text as it comes.
 */
export class StreamedText {
  readonly #columns: () => number | undefined;
  readonly #mode: WrapMode;
  #column = 0;
  #carriageReturn = false;
  /** The word being written on the current row, and the column it starts at. */
  #word = '';
  #wordWidth = 0;
  #wordStart = 0;
  /** In `hold` mode: the word not written yet, and its width. */
  #held = '';
  #heldWidth = 0;

  /** `columns` is the terminal's width, or `undefined` for a pipe, which is never wrapped. */
  constructor(columns: () => number | undefined = () => undefined, mode: WrapMode = 'redraw') {
    this.#columns = columns;
    this.#mode = mode;
  }

  /** The column the cursor is at (on a terminal that has seen everything written). */
  get column(): number {
    return this.#column;
  }

  /** True when nothing has been written on the current line. */
  get atLineStart(): boolean {
    return this.#column === 0 && !this.#carriageReturn && this.#held === '';
  }

  /** The text to write for `delta`. */
  push(delta: string): string {
    let text = this.#carriageReturn ? `\r${delta}` : delta;
    this.#carriageReturn = text.endsWith('\r');
    // A lone `\r` would be a line break of its own: wait for the next delta to know.
    if (this.#carriageReturn) text = text.slice(0, -1);
    let shown = '';
    for (const [index, part] of text.split('\t').entries()) {
      if (index > 0) {
        // The tab stop counts from where the held word ends.
        shown += this.flush();
        shown += this.#place(' '.repeat(TAB_STOP - (this.#column % TAB_STOP)));
      }
      if (part !== '') shown += this.#place(neutralizeText(part, { multiline: true }));
    }
    return shown;
  }

  /** Ends the current line, if anything is on it: the text to write. */
  endLine(): string {
    const held = this.flush();
    const shown = this.atLineStart ? '' : '\n';
    this.lineEnded();
    return held + shown;
  }

  /** The word held back (in `hold` mode), to write now: something else follows the text. */
  flush(): string {
    if (this.#held === '') return '';
    const width = this.#columns();
    const word = this.#held;
    const wordWidth = this.#heldWidth;
    this.#held = '';
    this.#heldWidth = 0;
    const moved = width !== undefined && this.#column > 0 && this.#column + wordWidth > width;
    this.#column = (moved ? 0 : this.#column) + wordWidth;
    return moved ? `\n${word}` : word;
  }

  /** Notes that the cursor is at the start of a line (someone else wrote a line break). */
  lineEnded(): void {
    this.#carriageReturn = false;
    this.#column = 0;
    this.#word = '';
    this.#wordWidth = 0;
    this.#held = '';
    this.#heldWidth = 0;
  }

  /** Writes inert text, wrapping it at the width if there is one. */
  #place(inert: string): string {
    const width = this.#columns();
    if (width === undefined || width < 2) {
      // The terminal became too narrow to wrap (or was never one): a held word goes first.
      const held = this.flush();
      const lastBreak = inert.lastIndexOf('\n');
      const tail = lastBreak < 0 ? inert : inert.slice(lastBreak + 1);
      this.#column = (lastBreak < 0 ? this.#column : 0) + textWidth(tail);
      return held + inert;
    }
    if (this.#mode === 'hold') return this.#hold(inert, width);
    let shown = '';
    for (const character of inert) {
      if (character === '\n') {
        shown += '\n';
        this.lineEnded();
        continue;
      }
      const characterWidth = textWidth(character);
      if (character === ' ') {
        // A space after a full row would start the next one with a blank: it becomes the break.
        if (this.#column >= width) {
          shown += this.#break();
        } else {
          shown += ' ';
          this.#column += 1;
        }
        this.#word = '';
        this.#wordWidth = 0;
        continue;
      }
      if (this.#word === '') this.#wordStart = this.#column;
      if (this.#column + characterWidth > width) shown += this.#wrapWord(width);
      shown += character;
      this.#column += characterWidth;
      this.#word += character;
      this.#wordWidth += characterWidth;
    }
    return shown;
  }

  /**
   * Holds each word back until it ends, then writes it where it fits: no character is looked
   * at twice, and nothing written is taken back.
   */
  #hold(inert: string, width: number): string {
    let shown = '';
    for (const character of inert) {
      if (character === '\n' || character === ' ') {
        shown += this.flush();
        if (character === '\n') {
          shown += '\n';
          this.lineEnded();
        } else if (this.#column >= width) {
          // A space after a full row would start the next one with a blank: it becomes the break.
          shown += this.#break();
        } else {
          shown += ' ';
          this.#column += 1;
        }
        continue;
      }
      const characterWidth = textWidth(character);
      if (this.#heldWidth + characterWidth > width) {
        // A word wider than a row: its first row is written now, on a row of its own.
        shown += `${this.#column > 0 ? '\n' : ''}${this.#held}\n`;
        this.#column = 0;
        this.#held = '';
        this.#heldWidth = 0;
      }
      this.#held += character;
      this.#heldWidth += characterWidth;
    }
    return shown;
  }

  /** Starts a new row and keeps no word going. */
  #break(): string {
    this.lineEnded();
    return '\n';
  }

  /** The word on the row does not fit: move it to the next row, or break it if it never fits. */
  #wrapWord(width: number): string {
    const word = this.#word;
    const wordWidth = this.#wordWidth;
    if (word === '' || this.#wordStart === 0 || wordWidth >= width) {
      // At the start of a word, nothing needs moving; a word wider than a row is broken.
      this.#column = 0;
      this.#wordStart = 0;
      return '\n';
    }
    const moved = `${eraseFrom(this.#wordStart)}\n${word}`;
    this.#column = wordWidth;
    this.#wordStart = 0;
    return moved;
  }
}
