import { neutralizeText } from './neutralize-text.js';
import { textWidth } from './text-width.js';

const TAB_STOP = 4;

/**
 * The assistant's text, delta by delta, made inert for the terminal. It remembers the
 * column across deltas, so that tabs line up and a `\r\n` split between two deltas stays
 * one line break.
 */
export class StreamedText {
  #column = 0;
  #carriageReturn = false;

  /** True when nothing has been written on the current line. */
  get atLineStart(): boolean {
    return this.#column === 0 && !this.#carriageReturn;
  }

  /** The inert text to write for `delta`. */
  push(delta: string): string {
    let text = this.#carriageReturn ? `\r${delta}` : delta;
    this.#carriageReturn = text.endsWith('\r');
    // A lone `\r` would be a line break of its own: wait for the next delta to know.
    if (this.#carriageReturn) text = text.slice(0, -1);
    let shown = '';
    for (const [index, part] of text.split('\t').entries()) {
      if (index > 0) {
        const spaces = TAB_STOP - (this.#column % TAB_STOP);
        shown += ' '.repeat(spaces);
        this.#column += spaces;
      }
      shown += this.#write(part);
    }
    return shown;
  }

  /** Ends the current line, if anything is on it: the text to write. */
  endLine(): string {
    if (this.atLineStart) return '';
    this.#carriageReturn = false;
    this.#column = 0;
    return '\n';
  }

  /** Notes that a line break was written by someone else (a question's summary line). */
  lineEnded(): void {
    this.#carriageReturn = false;
    this.#column = 0;
  }

  #write(part: string): string {
    if (part === '') return '';
    const inert = neutralizeText(part, { multiline: true });
    const lastBreak = inert.lastIndexOf('\n');
    const tail = lastBreak < 0 ? inert : inert.slice(lastBreak + 1);
    this.#column = (lastBreak < 0 ? this.#column : 0) + textWidth(tail);
    return inert;
  }
}
