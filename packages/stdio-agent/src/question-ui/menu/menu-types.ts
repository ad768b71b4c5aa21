// The menu's data, apart from the reducer (`menu-state.ts`) and its helpers, which all read it:
// so none of those files imports another in a circle.
import type { EditorState } from '../editor/editor-state.js';
import type { OptionFilter, OptionSearch } from './option-search.js';

/** A short message shown under the menu until the next key. */
export type MenuNotice =
  | { readonly kind: 'no-option'; readonly number: string }
  | { readonly kind: 'blank' }
  | { readonly kind: 'options-only' }
  /** Enter in a question that takes several choices, with none ticked and nothing typed. */
  | { readonly kind: 'nothing-ticked' }
  /** Text was left out (or, typed, refused) to keep the draft within the longest answer. */
  | { readonly kind: 'answer-limit'; readonly pasted: boolean }
  /** The draft is longer than an answer may be: it is not submitted. */
  | { readonly kind: 'answer-too-long'; readonly length: number }
  /** Enter with a filter that matches no option, in a list that takes no typed answer. */
  | { readonly kind: 'no-match' }
  /** Ctrl+D, which quits at the prompt but ends no question. */
  | { readonly kind: 'end-key' };

/** What the person did to end the question. */
export type MenuOutcome =
  | { readonly kind: 'option'; readonly index: number }
  | { readonly kind: 'text'; readonly text: string }
  /** Enter in a question that takes several choices: its ticks and its draft are the answer. */
  | { readonly kind: 'confirm' }
  | { readonly kind: 'decline' }
  | { readonly kind: 'cancel' };

/** The interactive question at one moment: pure data, changed only by `menuKey`. */
export interface MenuState {
  readonly optionCount: number;
  /** A "Type your own answer" row after the options. */
  readonly customRow: boolean;
  /** The row with the focus; the custom row is `optionCount`. */
  readonly focus: number;
  /** First row of the visible window; the layout keeps it in range. */
  readonly top: number;
  /** Rows in the visible window at the last frame, for PageUp and PageDown. */
  readonly page: number;
  /** Digits typed so far, when there are more than nine options. */
  readonly digits: string;
  readonly mode: 'menu' | 'editor';
  readonly editor: EditorState;
  readonly notice: MenuNotice | undefined;
  /** Inside a bracketed paste: every key is text, Enter and Esc included (Ctrl+C still cancels). */
  readonly pasting: boolean;
  /** Whether the person may tick several options (Space, digits) and confirm them with Enter. */
  readonly multiSelect: boolean;
  /** The ticked options, when `multiSelect`. */
  readonly ticked: ReadonlySet<number>;
  /** The option shown as chosen (an earlier answer to the question), or -1. */
  readonly chosen: number;
  /** Whether each option row shows a mark: ticked or not, or (one of several questions) chosen or not. */
  readonly marks: boolean;
  /** What typed text searches; without it, typing in the list opens the editor as it always did. */
  readonly search: OptionSearch | undefined;
  /** The options the typed text matches, while it narrows the list; `undefined`: every option. */
  readonly filter: OptionFilter | undefined;
}

/** The result of one key: the next state, and the outcome when the key ended the question. */
export interface MenuStep {
  readonly state: MenuState;
  readonly outcome?: MenuOutcome;
}

/** What the first state of a question depends on. */
export interface MenuSetup {
  readonly optionCount: number;
  readonly allowCustom: boolean;
  /** Index of the recommended option, or -1. */
  readonly recommended: number;
  /** Several options may be ticked. */
  readonly multiSelect?: boolean;
  /** Show which option is chosen, as one question of several does (always, with `multiSelect`). */
  readonly marks?: boolean;
  /** The options' texts, for typing to filter them. */
  readonly search?: OptionSearch;
}
