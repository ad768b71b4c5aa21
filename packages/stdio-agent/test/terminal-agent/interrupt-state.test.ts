import { describe, expect, it } from 'vitest';
import {
  AT_PROMPT,
  type InterruptEvent,
  type InterruptState,
  interruptStep,
} from '../../src/terminal-agent/interrupt-state.js';

/** The actions of a run of events from the prompt, and the state they leave. */
function run(...events: InterruptEvent[]): { actions: string[]; state: InterruptState } {
  let state = AT_PROMPT;
  const actions: string[] = [];
  for (const event of events) {
    const step = interruptStep(state, event);
    state = step.state;
    actions.push(step.action);
  }
  return { actions, state };
}

const ctrlC = { type: 'ctrl-c', lineTyped: false } as const;

describe('interruptStep, the Ctrl+C state machine of the terminal agent', () => {
  it('at the prompt: clears a typed line, else quits', () => {
    expect(run({ type: 'ctrl-c', lineTyped: true }).actions).toEqual(['clear-line']);
    expect(run(ctrlC).actions).toEqual(['quit']);
  });

  it('in a turn: cancels it, and quits at once when pressed again before it ended', () => {
    expect(run({ type: 'turn-start' }, ctrlC, ctrlC, ctrlC).actions).toEqual([
      'none',
      'cancel-turn',
      'force-quit',
      'force-quit',
    ]);
  });

  it('right after a cancelled turn, the first Ctrl+C only explains how to quit (in a terminal)', () => {
    const cancelled = [
      { type: 'turn-start' },
      ctrlC,
      { type: 'turn-end', cancelled: true, confirm: true },
    ] as const;
    expect(run(...cancelled, ctrlC, ctrlC).actions.slice(3)).toEqual(['explain-quit', 'quit']);
    // A typed line is cleared and the guard stays; sending a line disarms it.
    expect(run(...cancelled, { type: 'ctrl-c', lineTyped: true }, ctrlC).actions.slice(3)).toEqual([
      'clear-line',
      'explain-quit',
    ]);
    expect(run(...cancelled, { type: 'line' }, ctrlC).actions.slice(3)).toEqual(['none', 'quit']);
    // Not after a turn that finished, and not where no terminal shows the hint.
    expect(
      run({ type: 'turn-start' }, { type: 'turn-end', cancelled: false, confirm: true }, ctrlC)
        .actions[2],
    ).toBe('quit');
    expect(
      run(
        { type: 'turn-start' },
        ctrlC,
        { type: 'turn-end', cancelled: true, confirm: false },
        ctrlC,
      ).actions[3],
    ).toBe('quit');
  });

  it('a dismissed question cancels the turn once; Ctrl+C after it quits at once', () => {
    expect(
      run({ type: 'turn-start' }, { type: 'cancel' }, { type: 'cancel' }, ctrlC).actions,
    ).toEqual(['none', 'cancel-turn', 'none', 'force-quit']);
    // At the prompt there is no turn to cancel.
    expect(run({ type: 'cancel' })).toEqual({ actions: ['none'], state: AT_PROMPT });
  });
});
