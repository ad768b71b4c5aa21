import { describe, expect, it } from 'vitest';
import {
  type BatchState,
  type BatchStep,
  batchKeys,
  initialBatchState,
  onReview,
  pageAnswer,
} from '../../src/question-ui/batch/batch-state.js';
import { initialMenuState, menuKey } from '../../src/question-ui/menu/menu-state.js';
import type { KeyPress } from '../../src/question-ui/terminal/key.js';
import { key } from '../support/key-presses.js';

function typed(text: string): KeyPress {
  return {
    text,
    key: { name: /^[a-z0-9]$/.test(text) ? text : text === ' ' ? 'space' : undefined },
  };
}

const ENTER = key('return');
const TAB = key('tab');
const SHIFT_TAB = key('tab', { shift: true });

/** Language (one choice, options only), name (typed), features (several, typed allowed). */
function plan(): BatchState {
  return initialBatchState([
    { optionCount: 2, allowCustom: false, recommended: 0 },
    { optionCount: 0, allowCustom: true, recommended: -1 },
    { optionCount: 3, allowCustom: true, recommended: -1, multiSelect: true },
  ]);
}

/** Keys one chunk each, as a person types them. */
function press(state: BatchState, ...presses: KeyPress[]): BatchStep {
  let current: BatchStep = { state };
  for (const one of presses) {
    if (current.outcome !== undefined) throw new Error('The screen already ended.');
    current = batchKeys(current.state, [one]);
  }
  return current;
}

describe('several questions on one screen', () => {
  it('keeps one list state per question, apart from the others', () => {
    const state = plan();
    expect(state.menus).toHaveLength(3);
    expect(state.menus[2]?.multiSelect).toBe(true);
    // With several questions, a choice shows which option is its answer.
    expect(state.menus[0]?.marks).toBe(true);
    expect(state.page).toBe(0);
  });

  it('moves to the next question without an answer once one is answered, then to the review', () => {
    let step = press(plan(), ENTER);
    expect(step.state.page).toBe(1);
    expect(pageAnswer(step.state, 0)).toEqual({ kind: 'option', index: 0 });
    expect(step.state.menus[0]?.chosen).toBe(0);
    step = press(step.state, typed('x'), ENTER);
    expect(step.state.page).toBe(2);
    step = press(step.state, typed(' '), ENTER);
    expect(onReview(step.state)).toBe(true);
    expect(press(step.state, ENTER).outcome).toEqual({ kind: 'submit' });
  });

  it('Tab and Shift+Tab move between questions, the review included, and keep every answer', () => {
    const answered = press(plan(), ENTER, typed('m'), typed('y')).state;
    const around = press(answered, TAB, TAB, TAB, SHIFT_TAB, SHIFT_TAB, SHIFT_TAB).state;
    expect(around.page).toBe(1);
    expect(pageAnswer(around, 0)).toEqual({ kind: 'option', index: 0 });
    expect(pageAnswer(around, 1)).toEqual({ kind: 'text', text: 'my' });
    expect(around.menus[1]?.editor.text).toBe('my');
    expect(press(answered, SHIFT_TAB, SHIFT_TAB).state.page).toBe(3);
  });

  it('← and → move between questions in the list, and the cursor in a typed answer', () => {
    const start = plan();
    expect(press(start, key('right')).state.page).toBe(1);
    expect(press(start, key('left')).state.page).toBe(3);
    // The question without options is a line editor: the arrows edit.
    const typing = press(
      start,
      key('right'),
      typed('a'),
      typed('c'),
      key('left'),
      typed('b'),
    ).state;
    expect(typing.page).toBe(1);
    expect(typing.menus[1]?.editor.text).toBe('abc');
  });

  it('Space and digits tick, Enter confirms the ticks and the typed answer together', () => {
    const onFeatures = press(plan(), TAB, TAB).state;
    const ticked = press(onFeatures, typed(' '), typed('3'), typed('3'), typed('2')).state;
    expect([...(ticked.menus[2]?.ticked ?? [])].sort()).toEqual([0, 1]);
    // Into the typed-answer row: Space is a space there.
    const typing = press(ticked, key('end'), typed('a'), typed(' '), typed('b')).state;
    expect(typing.menus[2]?.editor.text).toBe('a b');
    expect(pageAnswer(typing, 2)).toEqual({ kind: 'options', indexes: [0, 1], text: 'a b' });
    // Leaving and coming back keeps both.
    const back = press(typing, TAB, SHIFT_TAB).state;
    expect(pageAnswer(back, 2)).toEqual({ kind: 'options', indexes: [0, 1], text: 'a b' });
    const confirmed = press(back, ENTER);
    expect(confirmed.outcome).toBeUndefined();
    expect(confirmed.state.page).toBe(0);
  });

  it('Enter with nothing ticked and nothing typed says so, and stays', () => {
    const onFeatures = press(plan(), TAB, TAB).state;
    const step = press(onFeatures, ENTER);
    expect(step.state.page).toBe(2);
    expect(step.state.menus[2]?.notice).toEqual({ kind: 'nothing-ticked' });
  });

  it('with more than nine options, digits build a number and Enter ticks it', () => {
    const state = initialBatchState([
      { optionCount: 12, allowCustom: false, recommended: -1, multiSelect: true },
      { optionCount: 0, allowCustom: true, recommended: -1 },
    ]);
    const ticked = press(state, typed('1'), typed('2'), ENTER, typed('1'), ENTER).state;
    expect([...(ticked.menus[0]?.ticked ?? [])].sort((a, b) => a - b)).toEqual([0, 11]);
    expect(ticked.page).toBe(0);
  });

  it('a draft typed for a question with one choice is its answer once the person moves on', () => {
    const state = initialBatchState([
      { optionCount: 2, allowCustom: true, recommended: -1 },
      { optionCount: 0, allowCustom: true, recommended: -1 },
    ]);
    const moved = press(state, typed('D'), typed('u'), typed('c'), typed('k'), TAB).state;
    expect(pageAnswer(moved, 0)).toEqual({ kind: 'text', text: 'Duck' });
    // An option chosen after it replaces it.
    const chosen = press(moved, SHIFT_TAB, key('escape'), key('home'), ENTER).state;
    expect(pageAnswer(chosen, 0)).toEqual({ kind: 'option', index: 0 });
  });

  it('Enter on the review names the first question without an answer; a digit goes back to it', () => {
    const review = press(plan(), SHIFT_TAB).state;
    const refused = press(review, ENTER);
    expect(refused.outcome).toBeUndefined();
    expect(refused.state.unanswered).toBe(0);
    expect(press(refused.state, typed('2')).state.page).toBe(1);
    expect(press(review, typed('7')).state.page).toBe(3);
  });

  it('Esc declines and Ctrl+C cancels the whole set, from a question and from the review', () => {
    expect(press(plan(), key('escape')).outcome).toEqual({ kind: 'decline' });
    expect(press(plan(), key('c', { ctrl: true })).outcome).toEqual({ kind: 'cancel' });
    const review = press(plan(), SHIFT_TAB).state;
    expect(press(review, key('escape')).outcome).toEqual({ kind: 'decline' });
    expect(press(review, key('c', { ctrl: true })).outcome).toEqual({ kind: 'cancel' });
    // Esc in a typed answer only goes back to the options, as for one question.
    const typing = press(plan(), TAB, TAB, key('end'), typed('x')).state;
    expect(press(typing, key('escape')).outcome).toBeUndefined();
  });

  it('Esc with answers given asks first: Esc again declines, any other key goes back, answers kept', () => {
    const answered = press(plan(), ENTER).state;
    expect(answered.page).toBe(1);
    const asked = press(answered, key('escape'));
    expect(asked.outcome).toBeUndefined();
    expect(asked.state.confirmingDecline).toBe(true);
    expect(press(asked.state, key('escape')).outcome).toEqual({ kind: 'decline' });
    expect(press(asked.state, key('c', { ctrl: true })).outcome).toEqual({ kind: 'cancel' });
    // Any other key only goes back: it is not typed into the question.
    const back = press(asked.state, typed('x')).state;
    expect(back.confirmingDecline).toBe(false);
    expect(back.menus[1]?.editor.text).toBe('');
    expect(pageAnswer(back, 0)).toEqual({ kind: 'option', index: 0 });
    // From the review too.
    const review = press(answered, SHIFT_TAB, SHIFT_TAB).state;
    expect(onReview(review)).toBe(true);
    expect(press(review, key('escape')).state.confirmingDecline).toBe(true);
  });

  it('inside a paste, Tab and Enter are text; a paste on the review does not submit', () => {
    const onFeatures = press(plan(), TAB, TAB, key('end')).state;
    const pasted = batchKeys(onFeatures, [
      key('paste-start'),
      typed('a'),
      { text: '\t', key: { name: 'tab', sequence: '\t' } },
      { text: '\r', key: { name: 'return', sequence: '\r' } },
      typed('b'),
      key('paste-end'),
    ]);
    expect(pasted.outcome).toBeUndefined();
    expect(pasted.state.page).toBe(2);
    expect(pasted.state.menus[2]?.editor.text).toBe('a  b');
    const review = press(plan(), ENTER, typed('x'), ENTER, typed(' '), ENTER).state;
    expect(onReview(review)).toBe(true);
    const onReviewPaste = batchKeys(review, [key('paste-start'), ENTER, key('paste-end')]);
    expect(onReviewPaste.outcome).toBeUndefined();
  });

  it('applies the keys of one chunk past an answer, on the next question', () => {
    const step = batchKeys(plan(), [ENTER, typed('o'), typed('k')]);
    expect(step.state.page).toBe(1);
    expect(step.state.menus[1]?.editor.text).toBe('ok');
  });

  it('one question alone is answered at once, with no review, and Tab stays in its list', () => {
    const alone = initialBatchState([{ optionCount: 3, allowCustom: false, recommended: -1 }]);
    expect(alone.menus[0]?.marks).toBe(false);
    expect(batchKeys(alone, [TAB]).state.menus[0]?.focus).toBe(1);
    expect(batchKeys(alone, [typed('2')]).outcome).toEqual({ kind: 'submit' });
  });

  it('a list state is the same reducer as a question alone', () => {
    const menu = initialMenuState({ optionCount: 3, allowCustom: false, recommended: -1 });
    expect(menuKey(menu, typed(' ')).state.ticked.size).toBe(0);
    const several = initialMenuState({
      optionCount: 3,
      allowCustom: false,
      recommended: -1,
      multiSelect: true,
    });
    expect([...menuKey(several, typed(' ')).state.ticked]).toEqual([0]);
  });
});
