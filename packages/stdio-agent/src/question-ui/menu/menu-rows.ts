import { neutralizeText } from '../../text/neutralize-text.js';
import type { TerminalStyle } from '../../text/terminal-style.js';
import { truncateText } from '../../text/text-width.js';
import { editorView } from '../editor/editor-view.js';
import type { QuestionView } from '../question-view.js';
import type { MenuState } from './menu-state.js';

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

/** The columns of a list of `optionCount` options in `width` columns. */
export function listLayout(optionCount: number, width: number): ListLayout {
  const numberWidth = String(optionCount).length;
  const labelColumn = numberWidth + 4;
  return { numberWidth, labelColumn, labelWidth: Math.max(4, width - labelColumn) };
}

/** One option as a row: pointer, number, label cut to the row, and the recommended mark. */
export function optionRow(
  view: QuestionView,
  index: number,
  focused: boolean,
  list: ListLayout,
  style: TerminalStyle,
): string {
  const number = `${String(index + 1).padStart(list.numberWidth)}.`;
  const suffix = index === view.recommended ? RECOMMENDED : '';
  const label = truncateText(view.label(index), Math.max(1, list.labelWidth - suffix.length));
  if (focused) {
    return `${style.accent(`${style.symbols.pointer} ${number} ${label}`)}${style.dim(suffix)}`;
  }
  return `  ${style.dim(number)} ${label}${style.dim(suffix)}`;
}

interface RowCache {
  readonly labelWidth: number;
  readonly style: TerminalStyle;
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
): string {
  let cache = rowCaches.get(view);
  if (cache === undefined || cache.labelWidth !== list.labelWidth || cache.style !== style) {
    cache = { labelWidth: list.labelWidth, style, rows: new Map() };
    rowCaches.set(view, cache);
  }
  let row = cache.rows.get(index);
  if (row === undefined) {
    if (cache.rows.size >= CACHED_ROWS) cache.rows.clear();
    row = optionRow(view, index, false, list, style);
    cache.rows.set(index, row);
  }
  return row;
}

/** The "Type your own answer" row: a label, the draft kept from the editor, or the editor. */
export function customRow(state: MenuState, list: ListLayout, style: TerminalStyle): string {
  const focused = state.focus === state.optionCount;
  const mark = style.symbols.custom.padEnd(list.numberWidth + 1);
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
