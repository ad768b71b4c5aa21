import type { TerminalStyle } from '../../text/terminal-style.js';
import { textWidth, truncateText } from '../../text/text-width.js';
import { answerLimitMessage, answerTooLongMessage } from '../answer-limit.js';
import type { QuestionView } from '../question-view.js';
import { isFreeForm } from './menu-state.js';
import type { MenuState } from './menu-types.js';

/**
 * A key hint; a strong one (the number being typed) stands out from the others. When the
 * hints must fit in fewer lines, those of the highest `rank` are left out first.
 */
interface Hint {
  readonly text: string;
  readonly rank: number;
  readonly strong?: boolean;
}

/** The message of the menu's notice, if it has one. */
export function noticeText(view: QuestionView, state: MenuState, style: TerminalStyle) {
  const { notice } = state;
  if (notice === undefined) return undefined;
  switch (notice.kind) {
    case 'no-option': {
      const range = view.optionCount === 1 ? '1' : `1-${view.optionCount}`;
      return `There is no option ${truncateText(notice.number, 12)}: choose ${range}.`;
    }
    case 'blank':
      return isFreeForm(state)
        ? 'Type an answer first, or press Esc to decline.'
        : 'Type an answer first, or press Esc to go back to the options.';
    case 'options-only': {
      const { up, down } = style.symbols;
      return `Choose one of the options: ${up}${down} and Enter, or its number.`;
    }
    case 'nothing-ticked':
      return state.customRow
        ? 'Tick at least one option with Space, or type an answer.'
        : 'Tick at least one option with Space.';
    case 'answer-limit':
      return answerLimitMessage(notice.pasted);
    case 'answer-too-long':
      return answerTooLongMessage(notice.length);
    case 'no-match':
      return 'No option matches: Backspace widens, Esc clears.';
    case 'end-key':
      return 'Ctrl+D ends no question: Esc declines it, Ctrl+C cancels.';
  }
}

/** Where the menu is shown: alone, or as one question of several (Tab moves between them). */
export interface MenuContext {
  readonly oneOfSeveral?: boolean;
}

function hints(
  view: QuestionView,
  state: MenuState,
  style: TerminalStyle,
  context: MenuContext,
): Hint[] {
  // Ranked by what a person cannot guess: how to answer, how to get out, then the rest.
  const ranked = (...items: [string, number][]) => items.map(([text, rank]) => ({ text, rank }));
  const submit = context.oneOfSeveral === true ? 'Enter next' : 'Enter submit';
  const between: [string, number][] =
    context.oneOfSeveral === true
      ? [
          ['Tab next question', 3],
          ['Shift+Tab back', 7],
        ]
      : [];
  if (isFreeForm(state)) {
    return ranked([submit, 1], ...between, ['Esc decline', 2], ['Ctrl+C cancel', 4]);
  }
  if (state.mode === 'editor') {
    const enter = state.multiSelect ? 'Enter confirm' : submit;
    return ranked([enter, 1], ['Esc back to options', 2], ...between, ['Ctrl+C cancel', 4]);
  }
  if (state.digits !== '') {
    return [
      { text: `Option ${state.digits}`, rank: 0, strong: true },
      ...ranked(
        [state.multiSelect ? 'Enter tick' : 'Enter choose', 1],
        ['Backspace erase', 3],
        ['Esc clear', 2],
        ['Ctrl+C cancel', 4],
      ),
    ];
  }
  const { up, down } = style.symbols;
  if (state.filter !== undefined) {
    const keys: [string, number][] = [[`${up}${down} move`, 3]];
    if (state.multiSelect) keys.push(['Space tick', 1], ['Enter tick', 1]);
    else keys.push(['Enter select', 1]);
    keys.push(['Backspace widen', 5], ['Esc clear filter', 2], ...between, ['Ctrl+C cancel', 4]);
    return ranked(...keys);
  }
  const count = view.optionCount;
  const verb = state.multiSelect ? 'tick' : 'choose';
  const numbers =
    count === 1
      ? `1 ${verb}`
      : count <= 9
        ? `1-${count} ${verb}`
        : state.multiSelect
          ? 'number+Enter tick'
          : 'number+Enter';
  const items: [string, number][] = [[`${up}${down} move`, 3]];
  if (state.multiSelect) items.push(['Space tick', 1], ['Enter confirm', 1]);
  else items.push(['Enter select', 1]);
  items.push([numbers, 5]);
  if (state.customRow) items.push(['or type an answer', 6]);
  items.push(...between, ['Esc decline', 2], ['Ctrl+C cancel', 4]);
  return ranked(...items);
}

function wrapHints(items: readonly Hint[], width: number, style: TerminalStyle): string[] {
  const separator = ` ${style.symbols.separator} `;
  const lines: string[] = [];
  let line = '';
  let used = 0;
  for (const hint of items) {
    const text = truncateText(hint.text, width);
    const shown = hint.strong === true ? style.accent(style.bold(text)) : style.dim(text);
    const size = textWidth(text);
    if (used === 0) {
      line = shown;
      used = size;
    } else if (used + separator.length + size <= width) {
      line += style.dim(separator) + shown;
      used += separator.length + size;
    } else {
      lines.push(line);
      line = shown;
      used = size;
    }
  }
  lines.push(line);
  return lines;
}

/**
 * The key hints under the question, wrapped between hints to `width` columns; with
 * `maxLines`, the least needed hints are left out until the rest fit in that many lines.
 */
export function hintLines(
  view: QuestionView,
  state: MenuState,
  width: number,
  style: TerminalStyle,
  maxLines = Number.POSITIVE_INFINITY,
  context: MenuContext = {},
): string[] {
  if (maxLines < 1) return [];
  const all = hints(view, state, style, context);
  const full = wrapHints(all, width, style);
  if (full.length <= maxLines) return full;
  const fits = (items: readonly Hint[]) => wrapHints(items, width, style).length <= maxLines;
  // Leave out the least needed until the rest fit, then take back any that still fit.
  const byNeed = [...all].sort((a, b) => a.rank - b.rank);
  const kept = new Set(byNeed);
  for (const hint of byNeed.toReversed()) {
    if (kept.size === 1 || fits(all.filter((item) => kept.has(item)))) break;
    kept.delete(hint);
  }
  for (const hint of byNeed) {
    if (kept.has(hint)) continue;
    kept.add(hint);
    if (!fits(all.filter((item) => kept.has(item)))) kept.delete(hint);
  }
  return wrapHints(
    all.filter((item) => kept.has(item)),
    width,
    style,
  );
}
