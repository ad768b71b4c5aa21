import { stripVTControlCharacters } from 'node:util';
import type { AskUserQuestionRequest } from 'dsh-user-interaction';
import { initialMenuState } from '../../src/question-ui/menu/menu-state.js';
import type { MenuState } from '../../src/question-ui/menu/menu-types.js';
import { renderMenu } from '../../src/question-ui/menu/render-menu.js';
import { type QuestionView, questionView } from '../../src/question-ui/question-view.js';
import { terminalStyle } from '../../src/text/terminal-style.js';

// What the menu tests draw with: a colour terminal's style, lists of options and a first state.

/** The style of an interactive terminal on Linux with no colour settings. */
export const style = terminalStyle({ env: {}, interactive: true, platform: 'linux' });

/** `count` options labelled `Option 1`, `Option 2`, … */
export function options(count: number) {
  return Array.from({ length: count }, (_, index) => ({ label: `Option ${index + 1}` }));
}

/** The state a menu opens in for `view`. */
export function stateFor(view: QuestionView): MenuState {
  return initialMenuState({
    optionCount: view.optionCount,
    allowCustom: view.allowCustom,
    recommended: view.recommended,
  });
}

/** One frame of `request` on a screen of `columns` × `rows`, with its lines as a person reads them. */
export function draw(
  request: AskUserQuestionRequest,
  columns: number,
  rows: number,
  state?: MenuState,
) {
  const view = questionView(request);
  const frame = renderMenu(view, state ?? stateFor(view), { columns, rows }, style);
  return { ...frame, text: frame.lines.map((line) => stripVTControlCharacters(line)) };
}
