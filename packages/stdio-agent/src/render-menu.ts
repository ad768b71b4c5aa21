import { editorLine } from './editor-line.js';
import { hintLines, noticeText } from './menu-hints.js';
import {
  customRow,
  type ListLayout,
  listLayout,
  optionRow,
  plainRow,
  RECOMMENDED,
} from './menu-rows.js';
import { isFreeForm, type MenuState, rowCount } from './menu-state.js';
import type { QuestionView } from './question-view.js';
import type { TerminalStyle } from './terminal-style.js';
import { ellipsize, textWidth, truncateText, widthEpoch, wrapText } from './text-width.js';

/** The size of the terminal, in columns and rows. */
export interface ScreenSize {
  readonly columns: number;
  readonly rows: number;
}

/** One drawn frame: its lines, and the window of rows it shows. */
export interface MenuFrame {
  readonly lines: readonly string[];
  readonly top: number;
  readonly page: number;
}

/** Rows the list keeps even when a long question competes for the screen. */
const MIN_LIST_ROWS = 4;
/** Rows of the details pane when the list scrolls. */
const DETAIL_ROWS = 3;

function indent(line: string): string {
  return line === '' ? '' : `  ${line}`;
}

function titleLines(
  view: QuestionView,
  width: number,
  max: number,
  style: TerminalStyle,
): string[] {
  const mark = style.accent(style.symbols.question);
  const body = [...view.questionLines(width - 2)];
  const room = view.header === undefined ? max : max - 1;
  if (body.length > room) {
    body.length = Math.max(1, room);
    body[body.length - 1] = ellipsize(body[body.length - 1] as string, width - 2);
  }
  if (view.header !== undefined) {
    return [`${mark} ${style.bold(truncateText(view.header, width - 2))}`, ...body.map(indent)];
  }
  return body.map((line, index) => (index === 0 ? `${mark} ${style.bold(line)}` : indent(line)));
}

/**
 * What the details pane shows for the focused option: its whole label when the list had to
 * cut it, then its description, wrapped to the label column.
 */
function details(view: QuestionView, index: number, list: ListLayout): string[] {
  const lines: string[] = [];
  const suffix = index === view.recommended ? RECOMMENDED : '';
  const label = view.label(index);
  if (textWidth(label) + suffix.length > list.labelWidth) {
    lines.push(...wrapText(label, list.labelWidth));
  }
  const description = view.description(index);
  if (description !== undefined) lines.push(...wrapText(description, list.labelWidth));
  return lines;
}

const paneHeights = new WeakMap<QuestionView, { width: number; epoch: number; rows: number }>();

/**
 * The tallest details of any option: a list that fits on screen gets a pane this high, so
 * that the hints below it stay put while the focus moves. Only asked of short lists.
 */
function tallestDetails(view: QuestionView, list: ListLayout): number {
  const known = paneHeights.get(view);
  const epoch = widthEpoch();
  if (known?.width === list.labelWidth && known.epoch === epoch) return known.rows;
  let rows = 0;
  for (let index = 0; index < view.optionCount; index++) {
    rows = Math.max(rows, details(view, index, list).length);
  }
  paneHeights.set(view, { width: list.labelWidth, epoch, rows });
  return rows;
}

/** `lines` in exactly `rows` lines: cut with `…`, or padded with blank lines. */
function fitRows(lines: string[], rows: number, width: number): string[] {
  if (lines.length > rows) {
    const kept = lines.slice(0, rows);
    if (rows > 0) kept[rows - 1] = ellipsize(kept[rows - 1] as string, width);
    return kept;
  }
  return [...lines, ...Array<string>(rows - lines.length).fill('')];
}

/**
 * The last resort of a tiny terminal: at most `height` lines, around the focused one. A frame
 * taller than the screen would scroll its first line away, and the next redraw with it.
 */
function fitHeight(lines: string[], height: number, focusLine: number): string[] {
  if (lines.length <= height) return lines;
  const start = clamp(focusLine - Math.floor(height / 2), 0, lines.length - height);
  return lines.slice(start, start + height);
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}

/**
 * Lays out the question for a terminal of `size`: title, options (a window around the focus
 * when they do not all fit), notice and key hints, within `rows - 1` lines of at most
 * `columns - 1` columns. Work follows the visible window, never the length of the list.
 */
export function renderMenu(
  view: QuestionView,
  state: MenuState,
  size: ScreenSize,
  style: TerminalStyle,
): MenuFrame {
  const width = Math.max(8, size.columns - 1);
  const height = Math.max(1, size.rows - 1);
  const footer = hintLines(view, state, width, style);
  const message = noticeText(view, state, style);
  const notice = message === undefined ? [] : [message];
  const available = height - footer.length - notice.length;
  const tail = [...notice.map((text) => style.warning(truncateText(text, width))), ...footer];

  if (isFreeForm(state)) {
    const title = titleLines(view, width, Math.max(1, available - 2), style);
    const gap = available - title.length >= 2 ? [''] : [];
    const editor = `${style.accent(style.symbols.pointer)} ${editorLine(state.editor, width - 2, style)}`;
    const lines = [...title, ...gap, editor, ...tail];
    return { lines: fitHeight(lines, height, title.length + gap.length), top: 0, page: 1 };
  }

  const rows = rowCount(state);
  const list = listLayout(state.optionCount, width);
  // The pane under the list: a blank line, then the focused option's details. Its height is
  // fixed while the list scrolls, so that moving the focus never moves the rows.
  const reserve = view.hasDetails(list.labelWidth) ? DETAIL_ROWS : 0;
  const paneCost = reserve > 0 ? reserve + 1 : 0;
  const minList = Math.min(rows, MIN_LIST_ROWS);
  const title = titleLines(
    view,
    width,
    clamp(available - 1 - minList - paneCost, 1, available),
    style,
  );
  const gap = available - title.length - minList - paneCost >= 1 ? [''] : [];
  const area = Math.max(1, available - title.length - gap.length);

  const fits = rows + Math.min(paneCost, 2) <= area;
  // On a small screen the pane shrinks first: the list keeps at least one row.
  const paneRows = fits || reserve === 0 ? reserve : clamp(area - 3, 0, reserve);
  const visible = fits ? rows : Math.max(1, area - 1 - (paneRows > 0 ? paneRows + 1 : 0));
  const top = fits
    ? 0
    : clamp(clamp(state.top, state.focus - visible + 1, state.focus), 0, rows - visible);

  const body: string[] = [];
  const focusLine = title.length + gap.length + (state.focus - top);
  for (let row = top; row < top + visible; row++) {
    if (row === state.optionCount) body.push(customRow(state, list, style));
    else if (row === state.focus) body.push(optionRow(view, row, true, list, style));
    else body.push(plainRow(view, row, list, style));
  }
  if (!fits) {
    const { up, down } = style.symbols;
    const above = top;
    const below = rows - top - visible;
    const parts = [];
    if (above > 0) parts.push(`${up} ${above} more`);
    if (below > 0) parts.push(`${down} ${below} more`);
    body.push(style.dim(truncateText(`  ${parts.join('   ')}`, width)));
  }
  if (paneRows > 0) {
    const focused = state.focus < state.optionCount ? details(view, state.focus, list) : [];
    // With the whole list on screen, the pane takes the height of the tallest details that
    // fit in the rows left over.
    const shown = fits ? Math.min(tallestDetails(view, list), area - rows - 1) : paneRows;
    const indent = ' '.repeat(list.labelColumn);
    body.push('');
    for (const line of fitRows(focused, shown, list.labelWidth)) {
      body.push(line === '' ? '' : indent + style.dim(line));
    }
  }
  const lines = [...title, ...gap, ...body, ...tail];
  return { lines: fitHeight(lines, height, focusLine), top, page: visible };
}
