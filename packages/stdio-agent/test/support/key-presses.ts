import { menuKey } from '../../src/question-ui/menu/menu-state.js';
import type { MenuState, MenuStep } from '../../src/question-ui/menu/menu-types.js';
import type { Key, KeyPress } from '../../src/question-ui/terminal/key.js';

/** A named key (`return`, `up`, …) with no text. */
export function key(name: string, modifiers: Omit<Key, 'name'> = {}): KeyPress {
  return { text: undefined, key: { name, ...modifiers } };
}

/** Text typed as one key press, named as readline names letters and digits. */
export function typed(text: string): KeyPress {
  return { text, key: { name: /^[a-z0-9]$/.test(text) ? text : undefined } };
}

/** Each character typed as its own key. */
export function typing(text: string): KeyPress[] {
  return [...text].map(typed);
}

/** The menu after the presses, one at a time; throws if a press comes after the question ended. */
export function runMenu(state: MenuState, ...presses: KeyPress[]): MenuStep {
  let current: MenuStep = { state };
  for (const press of presses) {
    if (current.outcome !== undefined) throw new Error('The question already ended.');
    current = menuKey(current.state, press);
  }
  return current;
}
