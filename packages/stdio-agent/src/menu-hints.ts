import { isFreeForm, type MenuState } from './menu-state.js';
import type { QuestionView } from './question-view.js';
import type { TerminalStyle } from './terminal-style.js';
import { textWidth, truncateText } from './text-width.js';

/** A key hint; a strong one (the number being typed) stands out from the others. */
interface Hint {
  readonly text: string;
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
  }
}

function hints(view: QuestionView, state: MenuState, style: TerminalStyle): Hint[] {
  const plain = (...texts: string[]) => texts.map((text) => ({ text }));
  if (isFreeForm(state)) return plain('Enter submit', 'Esc decline', 'Ctrl+C cancel');
  if (state.mode === 'editor') return plain('Enter submit', 'Esc back to options', 'Ctrl+C cancel');
  if (state.digits !== '') {
    return [
      { text: `Option ${state.digits}`, strong: true },
      ...plain('Enter choose', 'Backspace erase', 'Esc clear', 'Ctrl+C cancel'),
    ];
  }
  const count = view.optionCount;
  const numbers = count === 1 ? '1 choose' : count <= 9 ? `1-${count} choose` : 'number+Enter';
  const { up, down } = style.symbols;
  const items = [`${up}${down} move`, 'Enter select', numbers];
  if (state.customRow) items.push('or type an answer');
  items.push('Esc decline', 'Ctrl+C cancel');
  return plain(...items);
}

/** The key hints under the question, wrapped between hints to `width` columns. */
export function hintLines(
  view: QuestionView,
  state: MenuState,
  width: number,
  style: TerminalStyle,
): string[] {
  const separator = ` ${style.symbols.separator} `;
  const lines: string[] = [];
  let line = '';
  let used = 0;
  for (const hint of hints(view, state, style)) {
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
