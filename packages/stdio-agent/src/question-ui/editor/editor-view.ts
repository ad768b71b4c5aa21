import { neutralizeText } from '../../text/neutralize-text.js';
import type { TerminalStyle } from '../../text/terminal-style.js';
import { textWidth } from '../../text/text-width.js';
import type { EditorState } from './editor-state.js';
import { graphemesAfter, graphemesBefore, type MeasuredGrapheme } from './grapheme-window.js';

/** A grapheme as the editor shows it: inert, with the columns it takes. */
type Cell = MeasuredGrapheme;

/** What a grapheme of the draft shows: a control or bidi character must not act. */
function shownAs(grapheme: string): string {
  return neutralizeText(grapheme);
}

function cellWidth(grapheme: string): number {
  const shown = shownAs(grapheme);
  return shown === grapheme ? textWidth(grapheme) : shown.length;
}

const END_CELL: Cell = { text: ' ', width: 1 };

/**
 * The editor's text fitted to `width` columns around the cursor, which is drawn in reverse
 * video (the terminal's own cursor stays hidden, so a redraw never has to find it). Only the
 * graphemes that can be shown are measured: a keypress in a long draft costs what the line
 * shows, not what was typed.
 */
export function editorView(editor: EditorState, width: number, style: TerminalStyle): string {
  const { text, cursor } = editor;
  const before = graphemesBefore(text, cursor, width, cellWidth);
  const after = graphemesAfter(text, cursor, width, cellWidth);
  // The cursor's cell is the grapheme under it, or a blank one past the end.
  const [under, ...rest] = after.graphemes;
  const atCursor = under ?? END_CELL;
  const left = before.graphemes;
  // `first` and `last` count cells away from the cursor's; a side is cut when cells beyond
  // the shown ones exist, in the window read or past it.
  const moreLeft = (shown: number) => shown < left.length || before.more;
  const moreRight = (shown: number) => shown < rest.length || after.more;
  let first = left.length;
  let last = rest.length;
  const total = [...left, atCursor, ...rest].reduce((sum, cell) => sum + cell.width, 0);
  if (before.more || after.more || total > width) {
    // Keep as much as possible before the cursor, then fill what is left after it; a cut
    // side shows `…`, which takes a column.
    const rightReserve = moreRight(0) ? 1 : 0;
    let used = atCursor.width;
    first = 0;
    while (first < left.length) {
      const next = (left[first] as Cell).width + (moreLeft(first + 1) ? 1 : 0);
      if (used + next + rightReserve > width) break;
      used += (left[first] as Cell).width;
      first++;
    }
    const leftMark = moreLeft(first) ? 1 : 0;
    last = 0;
    while (last < rest.length) {
      const next = (rest[last] as Cell).width + (moreRight(last + 1) ? 1 : 0);
      if (used + leftMark + next > width) break;
      used += (rest[last] as Cell).width;
      last++;
    }
  }
  let line = moreLeft(first) ? style.dim('…') : '';
  for (let index = first - 1; index >= 0; index--) line += shownAs((left[index] as Cell).text);
  line += style.inverse(shownAs(atCursor.text));
  for (let index = 0; index < last; index++) line += shownAs((rest[index] as Cell).text);
  return moreRight(last) ? line + style.dim('…') : line;
}
