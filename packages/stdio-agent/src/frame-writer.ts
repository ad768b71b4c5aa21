import { stripVTControlCharacters } from 'node:util';
import { textWidth } from './text-width.js';

const ESC = '\u001b[';

/** Moves the cursor `rows` down (positive) or up (negative), within lines already drawn. */
function move(rows: number): string {
  if (rows > 0) return `${ESC}${rows}B`;
  if (rows < 0) return `${ESC}${-rows}A`;
  return '';
}

/** Rows a line of text takes once a terminal of `columns` has reflowed it. */
function rowsAfterReflow(line: string, columns: number): number {
  const width = textWidth(stripVTControlCharacters(line));
  return Math.max(1, Math.ceil(width / Math.max(1, columns)));
}

/**
 * Turns successive frames into the escape sequences that change only the lines that differ.
 * Between frames the cursor rests at the first column of the frame's last line, where
 * terminals expect it (at the bottom of the output): a terminal that reflows its lines on a
 * resize keeps the cursor there, and the frame's top can be found again from it.
 */
export class FrameWriter {
  private previous: readonly string[] = [];
  /** Rows from the cursor up to the frame's first line when it must be redrawn whole. */
  private redrawFrom: number | undefined = 0;

  /** What to write to go from the last frame to `lines`; empty when nothing changed. */
  render(lines: readonly string[]): string {
    const previous = this.previous;
    const full = this.redrawFrom !== undefined;
    let out = full ? `${move(-(this.redrawFrom as number))}\r${ESC}J` : '';
    const known = full ? 0 : previous.length;
    let row = Math.max(known - 1, 0);
    // Rows that exist below the top: moving into them must not scroll the screen.
    let reachable = Math.max(known, 1);
    for (let index = 0; index < lines.length; index++) {
      const line = lines[index] as string;
      if (index < known && previous[index] === line) continue;
      if (index < reachable) {
        out += move(index - row);
      } else {
        out += move(reachable - 1 - row);
        out += '\r\n'.repeat(index - (reachable - 1));
        reachable = index + 1;
      }
      row = index;
      out += `\r${line}${ESC}K`;
    }
    if (lines.length < known) {
      out += `${move(lines.length - row)}\r${ESC}J`;
      row = lines.length;
    }
    this.previous = lines;
    this.redrawFrom = undefined;
    if (out === '') return '';
    return `${out}${move(lines.length - 1 - row)}\r`;
  }

  /**
   * Forgets what is on screen after the terminal became `columns` wide, so that the next
   * frame is drawn whole, from where the reflowed old frame starts.
   */
  invalidate(columns: number): void {
    let rows = 0;
    for (let index = 0; index < this.previous.length - 1; index++) {
      rows += rowsAfterReflow(this.previous[index] as string, columns);
    }
    this.redrawFrom = (this.redrawFrom ?? 0) + rows;
    this.previous = [];
  }

  /** Erases the frame and leaves the cursor at the first column of where it started. */
  clear(): string {
    const rows = this.redrawFrom ?? Math.max(this.previous.length - 1, 0);
    this.previous = [];
    this.redrawFrom = 0;
    return `${move(-rows)}\r${ESC}J`;
  }
}
