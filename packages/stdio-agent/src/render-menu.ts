import { editorLine } from './editor-line.js';
import { isFreeForm, type MenuNotice, type MenuState, rowCount } from './menu-state.js';
import { neutralizeText } from './neutralize-text.js';
import type { QuestionView } from './question-view.js';
import type { TerminalStyle } from './terminal-style.js';
import { ellipsize, textWidth, truncateText, wrapText } from './text-width.js';

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

const CUSTOM_LABEL = 'Type your own answer';
const RECOMMENDED = ' (recommended)';
/** Rows the list keeps even when a long question competes for the screen. */
const MIN_LIST_ROWS = 4;

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

interface ListLayout {
  readonly numberWidth: number;
  /** Where labels start: after the pointer and the number. */
  readonly labelColumn: number;
  readonly labelWidth: number;
}

function optionLine(view: QuestionView, index: number, list: ListLayout, style: TerminalStyle) {
  const number = `${String(index + 1).padStart(list.numberWidth)}.`;
  const suffix = index === view.recommended ? RECOMMENDED : '';
  const room = Math.max(1, list.labelWidth - suffix.length);
  return `  ${style.dim(number)} ${truncateText(view.label(index), room)}${style.dim(suffix)}`;
}

/**
 * The focused option: its whole label and its description, wrapped, in at most `max` lines
 * (the last one ending with `…` when something was left out).
 */
function focusedOption(
  view: QuestionView,
  index: number,
  list: ListLayout,
  max: number,
  style: TerminalStyle,
): string[] {
  const number = `${String(index + 1).padStart(list.numberWidth)}.`;
  const suffix = index === view.recommended ? RECOMMENDED : '';
  const label = wrapText(view.label(index) + suffix, list.labelWidth);
  const description = view.description(index);
  const details = description === undefined ? [] : wrapText(description, list.labelWidth);
  const labelRows = Math.min(label.length, max);
  const detailRows = Math.min(details.length, max - labelRows);
  if (labelRows < label.length) {
    label[labelRows - 1] = ellipsize(label[labelRows - 1] as string, list.labelWidth);
  } else if (detailRows < details.length && detailRows > 0) {
    details[detailRows - 1] = ellipsize(details[detailRows - 1] as string, list.labelWidth);
  }
  const indent = ' '.repeat(list.labelColumn);
  const lines = label
    .slice(0, labelRows)
    .map((line, row) =>
      style.accent(row === 0 ? `${style.symbols.pointer} ${number} ${line}` : `${indent}${line}`),
    );
  for (const line of details.slice(0, detailRows)) lines.push(indent + style.dim(line));
  return lines;
}

/** Lines the focused option takes when nothing limits it. */
function focusedHeight(view: QuestionView, index: number, list: ListLayout): number {
  const suffix = index === view.recommended ? RECOMMENDED : '';
  const description = view.description(index);
  return (
    wrapText(view.label(index) + suffix, list.labelWidth).length +
    (description === undefined ? 0 : wrapText(description, list.labelWidth).length)
  );
}

function customLine(state: MenuState, list: ListLayout, style: TerminalStyle): string {
  const focused = state.focus === state.optionCount;
  const mark = style.symbols.custom.padEnd(list.numberWidth + 1);
  if (state.mode === 'editor') {
    const text = editorLine(state.editor, list.labelWidth, style);
    return `${style.accent(`${style.symbols.pointer} ${mark}`)} ${text}`;
  }
  const draft = state.editor.text;
  const text = draft === '' ? CUSTOM_LABEL : `${CUSTOM_LABEL}: ${neutralizeText(draft)}`;
  const shown = truncateText(text, list.labelWidth);
  if (focused) return style.accent(`${style.symbols.pointer} ${mark} ${shown}`);
  return `  ${style.dim(mark)} ${draft === '' ? style.dim(shown) : shown}`;
}

function noticeText(notice: MenuNotice, view: QuestionView, state: MenuState, s: TerminalStyle) {
  switch (notice.kind) {
    case 'no-option': {
      const range = view.optionCount === 1 ? '1' : `1-${view.optionCount}`;
      return `There is no option ${truncateText(notice.number, 12)}: choose ${range}.`;
    }
    case 'blank':
      return isFreeForm(state)
        ? 'Type an answer first, or press Esc to decline.'
        : 'Type an answer first, or press Esc to go back to the options.';
    case 'options-only':
      return `Choose one of the options: ${s.symbols.up}${s.symbols.down} and Enter, or its number.`;
  }
}

function hints(view: QuestionView, state: MenuState, style: TerminalStyle): string[] {
  const { up, down } = style.symbols;
  if (isFreeForm(state)) return ['Enter submit', 'Esc decline', 'Ctrl+C cancel'];
  if (state.mode === 'editor') return ['Enter submit', 'Esc back to options', 'Ctrl+C cancel'];
  if (state.digits !== '') {
    return [
      `Option ${state.digits}`,
      'Enter choose',
      'Backspace erase',
      'Esc clear',
      'Ctrl+C cancel',
    ];
  }
  const count = view.optionCount;
  const numbers = count === 1 ? '1 choose' : count <= 9 ? `1-${count} choose` : 'number+Enter';
  const items = [`${up}${down} move`, 'Enter select', numbers];
  if (state.customRow) items.push('or type an answer');
  items.push('Esc decline', 'Ctrl+C cancel');
  return items;
}

/** Hint items joined with separators, wrapped between items. */
function footerLines(items: string[], width: number, style: TerminalStyle): string[] {
  const separator = ` ${style.symbols.separator} `;
  const lines: string[] = [];
  let line = '';
  for (const item of items) {
    const candidate = line === '' ? item : line + separator + item;
    if (line !== '' && textWidth(candidate) > width) {
      lines.push(line);
      line = truncateText(item, width);
    } else {
      line = truncateText(candidate, width);
    }
  }
  lines.push(line);
  return lines.map((text) => style.dim(text));
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
  const height = Math.max(4, size.rows - 1);
  const footer = footerLines(hints(view, state, style), width, style);
  const notice = state.notice === undefined ? [] : [noticeText(state.notice, view, state, style)];
  const available = height - footer.length - notice.length;
  const tail = [...notice.map((text) => style.warning(truncateText(text, width))), ...footer];

  if (isFreeForm(state)) {
    const title = titleLines(view, width, Math.max(1, available - 2), style);
    const gap = available - title.length >= 2 ? [''] : [];
    const editor = `${style.accent(style.symbols.pointer)} ${editorLine(state.editor, width - 2, style)}`;
    return { lines: [...title, ...gap, editor, ...tail], top: 0, page: 1 };
  }

  const rows = rowCount(state);
  const numberWidth = String(state.optionCount).length;
  const labelColumn = numberWidth + 4;
  const list: ListLayout = {
    numberWidth,
    labelColumn,
    labelWidth: Math.max(4, width - labelColumn),
  };
  const focusedIsOption = state.focus < state.optionCount;
  const expansion = focusedIsOption ? focusedHeight(view, state.focus, list) - 1 : 0;
  const fullList = rows + expansion;
  const minList = Math.min(fullList, MIN_LIST_ROWS);
  const title = titleLines(view, width, clamp(available - 1 - minList, 1, available), style);
  const gap = available - title.length - minList >= 1 ? [''] : [];
  const area = Math.max(1, available - title.length - gap.length);

  const fits = fullList <= area;
  const slots = fits ? area : Math.max(1, area - 1);
  // A long description may take half the window; the rest stays a list to move through.
  const blockRows = fits
    ? expansion + 1
    : Math.min(expansion + 1, Math.max(1, Math.ceil(slots / 2)));
  const block = focusedIsOption ? focusedOption(view, state.focus, list, blockRows, style) : [];
  const visible = fits ? rows : Math.max(1, slots - (blockRows - 1));
  const top = fits
    ? 0
    : clamp(clamp(state.top, state.focus - visible + 1, state.focus), 0, rows - visible);

  const body: string[] = [];
  for (let row = top; row < top + visible; row++) {
    if (row === state.optionCount) body.push(customLine(state, list, style));
    else if (row === state.focus) body.push(...block);
    else body.push(optionLine(view, row, list, style));
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
  return { lines: [...title, ...gap, ...body, ...tail], top, page: visible };
}
