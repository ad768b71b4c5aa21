import { isBlankText } from 'dsh-user-interaction/provider';
import { LONGEST_ANSWER } from '../answer-limit.js';
import { typedAnswer } from '../menu/menu-filter.js';
import { initialMenuState, menuKeysFrom } from '../menu/menu-state.js';
import type { MenuSetup, MenuState, MenuStep } from '../menu/menu-types.js';
import { isKey, type KeyPress } from '../terminal/key.js';
import { isPastedKey, pasteBound, pastingAfter } from '../terminal/paste-keys.js';

/** One question's answer, as the screen of several questions holds it. */
export type BatchAnswer =
  | { readonly kind: 'option'; readonly index: number }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'options'; readonly indexes: readonly number[]; readonly text?: string };

/** What ended the screen of several questions. */
export type BatchOutcome =
  | { readonly kind: 'submit' }
  | { readonly kind: 'decline' }
  | { readonly kind: 'cancel' };

/**
 * Several questions on one screen at one moment: pure data, changed only by `batchKeys`. Each
 * question keeps its own list state; the page is one question, or the review after the last.
 */
export interface BatchState {
  /** One list state per question, in question order. */
  readonly menus: readonly MenuState[];
  /** The answer given with Enter to each question with one choice (the others are read live). */
  readonly chosen: readonly (BatchAnswer | undefined)[];
  /** The question shown, or `menus.length` for the review. */
  readonly page: number;
  /** On the review: the first question without an answer, after Enter. */
  readonly unanswered: number;
  /** Inside a bracketed paste on the review, where pasted text means nothing. */
  readonly pasting: boolean;
  /**
   * Esc was pressed with answers given: the screen asks before it declines them all (a second
   * Esc declines; any other key goes back), since the answers would be lost with no word.
   */
  readonly confirmingDecline: boolean;
}

/** The result of one key: the next state, and the outcome when the key ended the screen. */
export interface BatchStep {
  readonly state: BatchState;
  readonly outcome?: BatchOutcome;
}

/** The state several questions start in: the first question, each list in its own first state. */
export function initialBatchState(setups: readonly MenuSetup[]): BatchState {
  // With several questions, each choice shows which option is the answer when the person
  // comes back to it.
  const marks = setups.length > 1;
  return {
    menus: setups.map((setup) => initialMenuState({ ...setup, marks })),
    chosen: setups.map(() => undefined),
    page: 0,
    unanswered: -1,
    pasting: false,
    confirmingDecline: false,
  };
}

/** Whether the review is on screen. */
export function onReview(state: BatchState): boolean {
  return state.page === state.menus.length;
}

/** The typed text of a list: trimmed, or `undefined` when it is blank or too long to send. */
function draftOf(menu: MenuState): string | undefined {
  const text = typedAnswer(menu);
  return isBlankText(text) || text.length > LONGEST_ANSWER ? undefined : text.trim();
}

/**
 * The answer of question `index` so far: what Enter chose, for one choice; the ticks and the
 * typed text as they are, for several choices and for a question without options.
 */
export function pageAnswer(state: BatchState, index: number): BatchAnswer | undefined {
  const menu = state.menus[index] as MenuState;
  if (menu.optionCount === 0) {
    const text = draftOf(menu);
    return text === undefined ? undefined : { kind: 'text', text };
  }
  if (!menu.multiSelect) return state.chosen[index];
  const text = draftOf(menu);
  if (menu.ticked.size === 0 && text === undefined) return undefined;
  const indexes = [...menu.ticked].sort((a, b) => a - b);
  return text === undefined ? { kind: 'options', indexes } : { kind: 'options', indexes, text };
}

/**
 * Whether question `index` has an answer so far, as `pageAnswer` would say, without building
 * it: drawn at every key, it costs nothing per tick or per character typed.
 */
export function hasAnswer(state: BatchState, index: number): boolean {
  const menu = state.menus[index] as MenuState;
  const text = typedAnswer(menu);
  const typed = text.length <= LONGEST_ANSWER && !isBlankText(text);
  if (menu.optionCount === 0) return typed;
  if (!menu.multiSelect) return state.chosen[index] !== undefined;
  return menu.ticked.size > 0 || typed;
}

/** How many questions have an answer so far (what a decline would throw away). */
export function answeredCount(state: BatchState): number {
  let count = 0;
  for (let index = 0; index < state.menus.length; index++) {
    if (hasAnswer(state, index)) count++;
  }
  return count;
}

function firstUnanswered(state: BatchState, from = 0): number {
  const count = state.menus.length;
  for (let offset = 0; offset < count; offset++) {
    const index = (from + offset) % count;
    if (!hasAnswer(state, index)) return index;
  }
  return -1;
}

function replace<T>(list: readonly T[], index: number, value: T): T[] {
  const copy = list.slice();
  copy[index] = value;
  return copy;
}

/**
 * Leaves the page: a typed answer being edited in a question with one choice is taken as its
 * answer (a draft is never dropped), then `delta` pages on, the review included, wrapping.
 */
function turnPage(state: BatchState, delta: number): BatchState {
  let next = state;
  const menu = state.menus[state.page];
  if (menu !== undefined && menu.optionCount > 0 && !menu.multiSelect && menu.mode === 'editor') {
    const text = draftOf(menu);
    if (text !== undefined) {
      next = {
        ...next,
        chosen: replace(next.chosen, state.page, { kind: 'text', text }),
        menus: replace(next.menus, state.page, { ...menu, chosen: -1 }),
      };
    }
  }
  const pages = state.menus.length + 1;
  return { ...next, page: (state.page + delta + pages) % pages, unanswered: -1 };
}

/** After an answer: the next question without one, else the review. */
function advance(state: BatchState): BatchStep {
  if (state.menus.length === 1) return { state, outcome: { kind: 'submit' } };
  const next = firstUnanswered(state, state.page + 1);
  return { state: { ...state, page: next === -1 ? state.menus.length : next, unanswered: -1 } };
}

/** Applies what the list of the page did; an answer moves on, Esc and Ctrl+C end the screen. */
function afterMenuStep(state: BatchState, step: MenuStep): BatchStep {
  const { page } = state;
  const menus = replace(state.menus, page, step.state);
  const current = { ...state, menus };
  const { outcome } = step;
  switch (outcome?.kind) {
    case undefined:
      return { state: current };
    case 'decline':
    case 'cancel':
      return { state: current, outcome: { kind: outcome.kind } };
    case 'option':
      return advance({
        ...current,
        menus: replace(menus, page, { ...step.state, chosen: outcome.index }),
        chosen: replace(state.chosen, page, outcome),
      });
    case 'text':
      return advance({
        ...current,
        menus: replace(menus, page, { ...step.state, chosen: -1 }),
        chosen: replace(state.chosen, page, outcome),
      });
    case 'confirm':
      return advance(current);
  }
}

/**
 * A key that moves between questions rather than acting in the list: Tab and Shift+Tab always
 * (but inside a paste), and ← → while no typed answer is being edited.
 */
function isPageKey(menu: MenuState, press: KeyPress): boolean {
  if (menu.pasting) return false;
  const { key } = press;
  if (isKey(key, 'tab')) return true;
  return menu.mode === 'menu' && (isKey(key, 'left') || isKey(key, 'right'));
}

function pageDelta(press: KeyPress): number {
  const { key } = press;
  return isKey(key, 'left') || key.shift === true ? -1 : 1;
}

/** A key on the review: Enter submits, a number goes back to that question, Esc declines. */
function reviewKey(state: BatchState, press: KeyPress): BatchStep {
  const { key, text } = press;
  if (isKey(key, 'c', { ctrl: true })) return { state, outcome: { kind: 'cancel' } };
  if (pasteBound(press) !== undefined) {
    return { state: { ...state, pasting: pastingAfter(state.pasting, press) } };
  }
  if (isPastedKey(state.pasting, press)) return { state };
  const cleared = { ...state, unanswered: -1 };
  if (key.name === 'escape') return { state: cleared, outcome: { kind: 'decline' } };
  if (isKey(key, 'return') || isKey(key, 'enter')) {
    const missing = firstUnanswered(state);
    if (missing === -1) return { state: cleared, outcome: { kind: 'submit' } };
    return { state: { ...state, unanswered: missing } };
  }
  if (isKey(key, 'tab') || isKey(key, 'left') || isKey(key, 'right')) {
    return { state: turnPage(cleared, pageDelta(press)) };
  }
  const count = state.menus.length;
  if (text !== undefined && /^[0-9]$/.test(text) && key.ctrl !== true && key.meta !== true) {
    // 1 to 9 go back to that question; 0 to the tenth.
    const index = text === '0' ? 9 : Number(text) - 1;
    if (index < count) return { state: { ...cleared, page: index } };
  }
  return { state: cleared };
}

/**
 * Applies the keys of one input chunk in order, stopping at the key that ends the screen. The
 * keys for the list of the page go to it in runs, so that a paste is still inserted at once.
 */
export function batchKeys(state: BatchState, presses: readonly KeyPress[]): BatchStep {
  let current: BatchStep = { state };
  let index = 0;
  const several = state.menus.length > 1;
  const stopBefore = several ? isPageKey : undefined;
  while (index < presses.length && current.outcome === undefined) {
    const now = current.state;
    const press = presses[index] as KeyPress;
    if (now.confirmingDecline) {
      current = confirmKey(now, press);
      // A paste goes back, and is then taken as any paste is.
      if (press.key.name !== 'paste-start' || current.outcome !== undefined) index++;
      continue;
    }
    if (onReview(now)) {
      current = reviewKey(now, press);
      index++;
      continue;
    }
    const menu = now.menus[now.page] as MenuState;
    if (stopBefore?.(menu, press) === true) {
      current = { state: turnPage(now, pageDelta(press)) };
      index++;
      continue;
    }
    const { step, end } = menuKeysFrom(menu, presses, index, stopBefore);
    index = end;
    current = afterMenuStep(now, step);
  }
  return askBeforeDeclining(current);
}

/** A decline of several questions, some answered, asks first: it would lose those answers. */
function askBeforeDeclining(step: BatchStep): BatchStep {
  const { state, outcome } = step;
  if (outcome?.kind !== 'decline' || state.confirmingDecline) return step;
  if (state.menus.length < 2 || answeredCount(state) === 0) return step;
  return { state: { ...state, confirmingDecline: true } };
}

/** The key after Esc asked: Esc again declines, Ctrl+C cancels, any other key goes back. */
function confirmKey(state: BatchState, press: KeyPress): BatchStep {
  const { key } = press;
  if (key.name === 'escape') return { state, outcome: { kind: 'decline' } };
  if (isKey(key, 'c', { ctrl: true })) return { state, outcome: { kind: 'cancel' } };
  return { state: { ...state, confirmingDecline: false } };
}

/** The state with the list of the page in the window its layout chose. */
export function withPageMenu(state: BatchState, menu: MenuState): BatchState {
  const current = state.menus[state.page];
  return current === undefined || current === menu
    ? state
    : { ...state, menus: replace(state.menus, state.page, menu) };
}
