import type { LineEditor } from './line-editor.js';
import { neutralizeText } from './neutralize-text.js';
import type { TerminalStyle } from './terminal-style.js';
import { graphemes } from './text-width.js';

interface Cell {
  readonly shown: string;
  readonly width: number;
}

function cells(editor: LineEditor): { cells: Cell[]; cursor: number } {
  const result: Cell[] = [];
  let offset = 0;
  let cursor = -1;
  for (const grapheme of graphemes(editor.text)) {
    if (offset === editor.cursor) cursor = result.length;
    // Typed text is shown inert too: a pasted control or bidi character must not act.
    const shown = neutralizeText(grapheme.text);
    result.push({ shown, width: shown === grapheme.text ? grapheme.width : shown.length });
    offset += grapheme.text.length;
  }
  if (cursor === -1) {
    cursor = result.length;
    result.push({ shown: ' ', width: 1 });
  }
  return { cells: result, cursor };
}

/**
 * The editor's text fitted to `width` columns around the cursor, which is drawn in reverse
 * video (the terminal's own cursor stays hidden, so a redraw never has to find it).
 */
export function editorLine(editor: LineEditor, width: number, style: TerminalStyle): string {
  const { cells: all, cursor } = cells(editor);
  const total = all.reduce((sum, cell) => sum + cell.width, 0);
  let first = 0;
  let last = all.length - 1;
  if (total > width) {
    // Keep as much as possible before the cursor, then fill what is left after it; a cut
    // side shows `…`, which takes a column.
    const rightReserve = cursor < all.length - 1 ? 1 : 0;
    let used = (all[cursor] as Cell).width;
    first = cursor;
    while (first > 0) {
      const next = (all[first - 1] as Cell).width + (first - 1 > 0 ? 1 : 0);
      if (used + next + rightReserve > width) break;
      first--;
      used += (all[first] as Cell).width;
    }
    const leftMark = first > 0 ? 1 : 0;
    last = cursor;
    while (last < all.length - 1) {
      const next = (all[last + 1] as Cell).width + (last + 1 < all.length - 1 ? 1 : 0);
      if (used + leftMark + next > width) break;
      last++;
      used += (all[last] as Cell).width;
    }
  }
  let line = first > 0 ? style.dim('…') : '';
  for (let index = first; index <= last; index++) {
    const cell = all[index] as Cell;
    line += index === cursor ? style.inverse(cell.shown) : cell.shown;
  }
  return last < all.length - 1 ? line + style.dim('…') : line;
}
