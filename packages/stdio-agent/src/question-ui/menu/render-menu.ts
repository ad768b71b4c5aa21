import { neutralizeText } from '../../text/neutralize-text.js';
import type { TerminalStyle } from '../../text/terminal-style.js';
import { ellipsize, truncateText } from '../../text/text-width.js';
import { groupDigits } from '../answer-limit.js';
import { editorView } from '../editor/editor-view.js';
import type { QuestionView } from '../question-view.js';
import { optionDetails, tallestDetails } from './menu-details.js';
import { isShown, listRows, optionAtRow, rowOfFocus } from './menu-filter.js';
import { hintLines, type MenuContext, noticeText } from './menu-hints.js';
import { DETAIL_ROWS, type MenuNeeds, type MenuPlan, planMenu } from './menu-layout.js';
import { customRow, type ListLayout, listLayout, optionRow, plainRow } from './menu-rows.js';
import { isFreeForm } from './menu-state.js';
import type { MenuState } from './menu-types.js';

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

function indent(line: string): string {
  return line === '' ? '' : `  ${line}`;
}

/** The header and the question, the question ending with `…` only when lines were left out. */
function titleLines(
  view: QuestionView,
  question: readonly string[],
  plan: MenuPlan,
  width: number,
  style: TerminalStyle,
): string[] {
  const mark = style.accent(style.symbols.question);
  const body = question.slice(0, plan.questionRows);
  if (body.length > 0 && body.length < question.length) {
    body[body.length - 1] = ellipsize(body[body.length - 1] as string, width - 2);
  }
  if (plan.header && view.header !== undefined) {
    return [`${mark} ${style.bold(truncateText(view.header, width - 2))}`, ...body.map(indent)];
  }
  return body.map((line, index) => (index === 0 ? `${mark} ${style.bold(line)}` : indent(line)));
}

/** `lines` in exactly `rows` lines: cut with `…`, or padded with blank lines. */
function fitRows(lines: readonly string[], rows: number, width: number): string[] {
  if (lines.length > rows) {
    const kept = lines.slice(0, rows);
    if (rows > 0) kept[rows - 1] = ellipsize(kept[rows - 1] as string, width);
    return kept;
  }
  return [...lines, ...Array<string>(rows - lines.length).fill('')];
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}

function listRow(
  view: QuestionView,
  state: MenuState,
  row: number,
  list: ListLayout,
  style: TerminalStyle,
) {
  if (listRows(state) === 0) {
    return style.dim(truncateText('  (no option matches)', list.labelColumn + list.labelWidth));
  }
  const option = optionAtRow(state, row);
  if (option === state.optionCount) return customRow(state, list, style);
  if (option === state.focus) return optionRow(view, option, true, list, style, state);
  return plainRow(view, option, list, style, state);
}

/** The line under a filtered list: what the filter found, and how many rows are out of sight. */
function filterLine(state: MenuState, above: number, below: number, style: TerminalStyle): string {
  const { filter } = state;
  const found = filter?.matches.length ?? 0;
  const total = groupDigits(state.optionCount);
  // What fits on the line is shown: a long draft costs no more than that.
  const typed = `"${neutralizeText(state.editor.text.slice(0, 256))}"`;
  const parts = [
    found === 0 ? `No option matches ${typed}` : `${groupDigits(found)} of ${total} match ${typed}`,
  ];
  if (above > 0) parts.push(`${style.symbols.up} ${above} more`);
  if (below > 0) parts.push(`${style.symbols.down} ${below} more`);
  return parts.join('   ');
}

/**
 * Lays out the question for a terminal of `size`: title, options (a window around the focus
 * when they do not all fit), the focused option's details, notice and key hints, within
 * `rows - 1` lines of at most `columns - 1` columns; `planMenu` decides who gets the rows.
 * Work follows the visible window, never the length of the list.
 */
export function renderMenu(
  view: QuestionView,
  state: MenuState,
  size: ScreenSize,
  style: TerminalStyle,
  context: MenuContext = {},
): MenuFrame {
  const width = Math.max(8, size.columns - 1);
  const freeForm = isFreeForm(state);
  const rows = freeForm ? 1 : Math.max(1, listRows(state));
  const focusRow = freeForm ? 0 : rowOfFocus(state);
  const list = listLayout(state.optionCount, width, state.marks);
  // A filter that matches nothing shows no option, nor the details of one.
  const details = isShown(state, state.focus)
    ? optionDetails(view, state.focus, list)
    : ([] as string[]);
  const hints = hintLines(view, state, width, style, Number.POSITIVE_INFINITY, context);
  const notice = noticeText(view, state, style);
  const question = view.questionLines(width - 2);
  const needs: MenuNeeds = {
    height: Math.max(1, size.rows - 1),
    rows,
    filtered: state.filter !== undefined,
    header: view.header !== undefined,
    questionRows: question.length,
    noticeRows: notice === undefined ? 0 : 1,
    hintRows: hints.length,
    detailRows: details.length,
    tallestDetails: () => tallestDetails(view, list),
  };
  const plan = planMenu(needs);
  const { visible } = plan;
  // While the list scrolls, the pane comes and goes with the focus, and the window gives or
  // takes its rows. The focus stays within the rows the window keeps when the pane is at its
  // tallest: then only the rows under the focus change, never the focus's own place.
  const steady =
    visible < rows && view.hasDetails(list.labelWidth)
      ? planMenu({ ...needs, detailRows: DETAIL_ROWS }).visible
      : visible;
  const top = clamp(clamp(state.top, focusRow - steady + 1, focusRow), 0, rows - visible);

  const lines = titleLines(view, question, plan, width, style);
  if (plan.gap) lines.push('');
  if (freeForm) {
    lines.push(
      `${style.accent(style.symbols.pointer)} ${editorView(state.editor, width - 2, style)}`,
    );
  } else {
    for (let row = top; row < top + visible; row++) {
      lines.push(listRow(view, state, row, list, style));
    }
  }
  if (plan.indicator && state.filter !== undefined) {
    const line = filterLine(state, top, Math.max(0, rows - top - visible), style);
    lines.push(style.dim(truncateText(`  ${line}`, width)));
  } else if (plan.indicator) {
    const { up, down } = style.symbols;
    const parts = [];
    if (top > 0) parts.push(`${up} ${top} more`);
    if (rows - top - visible > 0) parts.push(`${down} ${rows - top - visible} more`);
    lines.push(style.dim(truncateText(`  ${parts.join('   ')}`, width)));
  }
  if (plan.paneRows > 0) {
    const column = ' '.repeat(list.labelColumn);
    lines.push('');
    for (const line of fitRows(details, plan.paneRows, list.labelWidth)) {
      lines.push(line === '' ? '' : column + style.dim(line));
    }
  }
  if (notice !== undefined && plan.noticeRows > 0) {
    lines.push(style.warning(truncateText(notice, width)));
  }
  lines.push(
    ...(plan.hintRows < hints.length
      ? hintLines(view, state, width, style, plan.hintRows, context)
      : hints),
  );
  return { lines, top, page: visible };
}
