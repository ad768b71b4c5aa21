import { neutralizeText } from '../../text/neutralize-text.js';
import { searchMatches } from '../../text/search-key.js';
import type { TerminalStyle } from '../../text/terminal-style.js';
import { truncateText } from '../../text/text-width.js';
import { editorView } from '../editor/editor-view.js';
import type { QuestionView } from '../question-view.js';
import type { MenuState } from './menu-types.js';

/** Where the columns of the list are. */
export interface ListLayout {
  readonly numberWidth: number;
  /** Where labels start: after the pointer and the number. */
  readonly labelColumn: number;
  readonly labelWidth: number;
}

/** What follows the label of the recommended option. */
export const RECOMMENDED = ' (recommended)';
const CUSTOM_LABEL = 'Type your own answer';

/** Columns a row's mark takes (`[x] `), when the rows have marks. */
const MARK_WIDTH = 4;

/** The columns of a list of `optionCount` options in `width` columns, with or without marks. */
export function listLayout(optionCount: number, width: number, marks = false): ListLayout {
  const numberWidth = String(optionCount).length;
  const labelColumn = numberWidth + 4 + (marks ? MARK_WIDTH : 0);
  return { numberWidth, labelColumn, labelWidth: Math.max(4, width - labelColumn) };
}

/** Whether the option at `index` is ticked (several choices) or chosen (one choice). */
export function isMarked(state: MenuState, index: number): boolean {
  return state.multiSelect ? state.ticked.has(index) : state.chosen === index;
}

/** The mark before a label: a box for several choices, a round one for one, ASCII either way. */
function markOf(state: MenuState | undefined, index: number): string {
  if (state?.marks !== true) return '';
  const on = isMarked(state, index);
  if (state.multiSelect) return on ? '[x] ' : '[ ] ';
  return on ? '(*) ' : '( ) ';
}

/**
 * A label cut to `width`, with what `query` (a search key) matches in it highlighted. The
 * cut text keeps the label's characters, then `…`: highlights stop where it was cut.
 */
function highlighted(label: string, width: number, query: string, style: TerminalStyle): string {
  const cut = truncateText(label, width);
  if (query === '') return cut;
  const kept = cut === label ? label.length : cut.length - 1;
  let shown = '';
  let at = 0;
  for (const { start, end } of searchMatches(label, query)) {
    if (start >= kept) break;
    shown += label.slice(at, start) + style.match(label.slice(start, Math.min(end, kept)));
    at = Math.min(end, kept);
  }
  return shown + cut.slice(at);
}

/**
 * One option as a row: pointer, number, its mark when the rows have marks (`state`), label cut
 * to the row (what a filter matched highlighted), and the recommended mark.
 */
export function optionRow(
  view: QuestionView,
  index: number,
  focused: boolean,
  list: ListLayout,
  style: TerminalStyle,
  state?: MenuState,
): string {
  const number = `${String(index + 1).padStart(list.numberWidth)}.`;
  const mark = markOf(state, index);
  const suffix = index === view.recommended ? RECOMMENDED : '';
  const width = Math.max(1, list.labelWidth - suffix.length);
  const label = highlighted(view.label(index), width, state?.filter?.query ?? '', style);
  if (focused) {
    return `${style.accent(`${style.symbols.pointer} ${number} ${mark}${label}`)}${style.dim(suffix)}`;
  }
  const shownMark = mark !== '' && isMarked(state as MenuState, index) ? style.success(mark) : mark;
  return `  ${style.dim(number)} ${shownMark}${label}${style.dim(suffix)}`;
}

interface RowCache {
  readonly labelWidth: number;
  readonly style: TerminalStyle;
  /** The filter's query the rows were drawn with: their highlights. */
  readonly query: string;
  readonly rows: Map<number, string>;
}

const rowCaches = new WeakMap<QuestionView, RowCache>();
/** Rows kept per question: enough for any screen, small enough for any list. */
const CACHED_ROWS = 512;

/**
 * An option's row without the focus, drawn once and reused: a key that moves the focus
 * then draws two rows, not the whole window.
 */
export function plainRow(
  view: QuestionView,
  index: number,
  list: ListLayout,
  style: TerminalStyle,
  state?: MenuState,
): string {
  let cache = rowCaches.get(view);
  const query = state?.filter?.query ?? '';
  if (
    cache === undefined ||
    cache.labelWidth !== list.labelWidth ||
    cache.style !== style ||
    cache.query !== query
  ) {
    cache = { labelWidth: list.labelWidth, style, query, rows: new Map() };
    rowCaches.set(view, cache);
  }
  // A row looks different with and without its mark: each look has its own key.
  const key = state?.marks === true ? index * 3 + (isMarked(state, index) ? 2 : 1) : index * 3;
  let row = cache.rows.get(key);
  if (row === undefined) {
    if (cache.rows.size >= CACHED_ROWS) cache.rows.clear();
    row = optionRow(view, index, false, list, style, state);
    cache.rows.set(key, row);
  }
  return row;
}

/** The "Type your own answer" row: a label, the draft kept from the editor, or the editor. */
export function customRow(state: MenuState, list: ListLayout, style: TerminalStyle): string {
  const focused = state.focus === state.optionCount;
  const mark = style.symbols.custom.padEnd(list.labelColumn - 3);
  if (state.mode === 'editor') {
    const text = editorView(state.editor, list.labelWidth, style);
    return `${style.accent(`${style.symbols.pointer} ${mark}`)} ${text}`;
  }
  const draft = state.editor.text;
  const text = draft === '' ? CUSTOM_LABEL : `${CUSTOM_LABEL}: ${neutralizeText(draft)}`;
  const shown = truncateText(text, list.labelWidth);
  if (focused) return style.accent(`${style.symbols.pointer} ${mark} ${shown}`);
  return `  ${style.dim(mark)} ${draft === '' ? style.dim(shown) : shown}`;
}
