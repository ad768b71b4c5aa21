import { stripVTControlCharacters } from 'node:util';
import { textWidth } from '../../text/text-width.js';

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

/** A block of rows the terminal can move instead of rewriting them. */
interface Scroll {
  /** Delete `count` rows here (what leaves the block)… */
  readonly deleteAt: number;
  /** …then insert `count` blank rows here, so that the rows below stay where they were. */
  readonly insertAt: number;
  readonly count: number;
  /** What each row shows afterwards (`undefined`: blank). */
  readonly rows: readonly (string | undefined)[];
}

/** Fewer rows saved than this are not worth a scroll. */
const MIN_SCROLL_GAIN = 3;

/**
 * The largest block of `lines` that is a block of `previous` moved by up to three rows, as
 * a list window does when the focus moves past its edge. Lines are compared by identity
 * first, which the cached rows of the menu make cheap.
 */
function findScroll(previous: readonly string[], lines: readonly string[]): Scroll | undefined {
  let changed = 0;
  for (let index = 0; index < lines.length; index++) {
    if (lines[index] !== previous[index]) changed++;
  }
  if (changed < MIN_SCROLL_GAIN) return undefined;
  let best: { shift: number; start: number; end: number; gain: number } | undefined;
  for (const shift of [1, -1, 2, -2, 3, -3]) {
    let start = 0;
    let gain = 0;
    for (let index = 0; index <= lines.length; index++) {
      const source = index + shift;
      const same =
        index < lines.length &&
        source >= 0 &&
        source < previous.length &&
        lines[index] === previous[source];
      if (same) {
        if (lines[index] !== previous[index]) gain++;
        continue;
      }
      if (gain > (best?.gain ?? MIN_SCROLL_GAIN - 1)) best = { shift, start, end: index, gain };
      start = index + 1;
      gain = 0;
    }
  }
  if (best === undefined) return undefined;
  const { shift, start, end } = best;
  const count = Math.abs(shift);
  const rows: (string | undefined)[] = [...previous];
  if (shift > 0) {
    // The block moved up: its first rows leave at the top, blank rows open under it.
    for (let index = start; index < end; index++) rows[index] = previous[index + shift];
    for (let index = end; index < end + count && index < rows.length; index++)
      rows[index] = undefined;
    return { deleteAt: start, insertAt: end, count, rows };
  }
  // The block moved down: its last rows leave at the bottom, blank rows open above it.
  if (start - count < 0) return undefined;
  for (let index = start - count; index < start; index++) rows[index] = undefined;
  for (let index = start; index < end; index++) rows[index] = previous[index - count];
  return { deleteAt: end - count, insertAt: start - count, count, rows };
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
    const full = this.redrawFrom !== undefined;
    let out = full ? `${move(-(this.redrawFrom as number))}\r${ESC}J` : '';
    const known = full ? 0 : this.previous.length;
    let row = Math.max(known - 1, 0);
    // What each row shows now; a scrolled block is moved by the terminal, not rewritten.
    let previous: readonly (string | undefined)[] = this.previous;
    const scroll = full ? undefined : findScroll(this.previous, lines);
    if (scroll !== undefined) {
      out += `${move(scroll.deleteAt - row)}${ESC}${scroll.count}M`;
      out += `${move(scroll.insertAt - scroll.deleteAt)}${ESC}${scroll.count}L`;
      row = scroll.insertAt;
      previous = scroll.rows;
    }
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
