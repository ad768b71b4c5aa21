import type { AskUserQuestionRequest } from 'dsh-user-interaction';
import { expect } from 'vitest';
import { open as openTerminal, terminal } from './menu-terminal.js';

// The questions and checks of the tests of a question's life: queued, withdrawn, ended with the
// input, and the terminal given back. These files run isolated, so `baseline` is read as each
// file loads, before any question is on screen.

/** The question asked first. */
export const FIRST: AskUserQuestionRequest = {
  header: 'First',
  question: 'Which one first?',
  options: [{ label: 'Alpha' }, { label: 'Beta' }],
};
/** The question asked second. */
export const SECOND: AskUserQuestionRequest = {
  header: 'Second',
  question: 'Which one second?',
  options: [{ label: 'Gamma' }, { label: 'Delta' }],
};

/** Opens a provider on a fake terminal of 60 × 20. */
export function open(): void {
  openTerminal({ columns: 60, rows: 20 });
}

/** The terminal is given back: the cursor shows, raw mode is off, no process listener is left. */
export async function expectRestored(): Promise<void> {
  await terminal.flush();
  expect(terminal.cursorHidden()).toBe(false);
  expect(terminal.input.isRaw).toBe(false);
  expect(process.listenerCount('SIGTERM')).toBe(baseline.sigterm);
  expect(process.listenerCount('exit')).toBe(baseline.exit);
  for (const signal of OTHER_SIGNALS) {
    expect(process.listenerCount(signal)).toBe(baseline.others[signal]);
  }
}

/** The signals a host may handle itself. */
export const OTHER_SIGNALS = ['SIGINT', 'SIGHUP', 'SIGQUIT'] as const;
/** The process listeners there were before any question. */
export const baseline = {
  sigterm: process.listenerCount('SIGTERM'),
  exit: process.listenerCount('exit'),
  others: Object.fromEntries(
    OTHER_SIGNALS.map((signal) => [signal, process.listenerCount(signal)]),
  ),
};
