import { neutralizeText } from '../text/neutralize-text.js';
import { textWidth } from '../text/text-width.js';

const TAB_STOP = 4;

/** Moves the cursor to `column` of its row and erases the rest of the row. */
export function eraseFrom(column: number): string {
  return `\r${column > 0 ? `\u001b[${column}C` : ''}\u001b[K`;
}

/**
 * The assistant's text, delta by delta, made inert for the terminal. It remembers the
 * column across deltas, so that tabs line up and a `\r\n` split between two deltas stays
 * one line break; given a width, it wraps at spaces. Text is written as it arrives: a word
 * that grows past the right edge is moved to the next row, rather than held back.
 */
export class StreamedText {
  readonly #columns: () => number | undefined;
  #column = 0;
  #carriageReturn = false;
  /** The word being written on the current row, and the column it starts at. */
  #word = '';
  #wordWidth = 0;
  #wordStart = 0;

  /** `columns` is the terminal's width, or `undefined` for a pipe, which is never wrapped. */
  constructor(columns: () => number | undefined = () => undefined) {
    this.#columns = columns;
  }

  /** The column the cursor is at (on a terminal that has seen everything written). */
  get column(): number {
    return this.#column;
  }

  /** True when nothing has been written on the current line. */
  get atLineStart(): boolean {
    return this.#column === 0 && !this.#carriageReturn;
  }

  /** The text to write for `delta`. */
  push(delta: string): string {
    let text = this.#carriageReturn ? `\r${delta}` : delta;
    this.#carriageReturn = text.endsWith('\r');
    // A lone `\r` would be a line break of its own: wait for the next delta to know.
    if (this.#carriageReturn) text = text.slice(0, -1);
    let shown = '';
    for (const [index, part] of text.split('\t').entries()) {
      if (index > 0) shown += this.#place(' '.repeat(TAB_STOP - (this.#column % TAB_STOP)));
      if (part !== '') shown += this.#place(neutralizeText(part, { multiline: true }));
    }
    return shown;
  }

  /** Ends the current line, if anything is on it: the text to write. */
  endLine(): string {
    const shown = this.atLineStart ? '' : '\n';
    this.lineEnded();
    return shown;
  }

  /** Notes that the cursor is at the start of a line (someone else wrote a line break). */
  lineEnded(): void {
    this.#carriageReturn = false;
    this.#column = 0;
    this.#word = '';
    this.#wordWidth = 0;
  }

  /** Writes inert text, wrapping it at the width if there is one. */
  #place(inert: string): string {
    const width = this.#columns();
    if (width === undefined || width < 2) {
      const lastBreak = inert.lastIndexOf('\n');
      const tail = lastBreak < 0 ? inert : inert.slice(lastBreak + 1);
      this.#column = (lastBreak < 0 ? this.#column : 0) + textWidth(tail);
      return inert;
    }
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
