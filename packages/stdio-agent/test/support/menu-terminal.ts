import { expect } from 'vitest';
import type { ReadlineProvider } from '../../src/index.js';
import type { FakeTerminal } from '../../src/testing.js';
import { providerOnTerminal } from './question-provider.js';

// The fake terminal of the menu tests. `terminal` and `provider` are live bindings: they are what
// the running test last opened. `each-file.ts` disposes them after each test (a hook registered
// here would reach only the first file of a worker).

/** The fake terminal the running test opened last. */
export let terminal: FakeTerminal;
/** The provider on `terminal`. */
export let provider: ReadlineProvider;
let opened = false;

/** Opens a provider on a fresh fake terminal, whose Escape key is told apart within 10 ms. */
export function open(options: { columns?: number; rows?: number } = {}): FakeTerminal {
  ({ terminal, provider } = providerOnTerminal({ ...options, escapeCodeTimeout: 10 }));
  opened = true;
  return terminal;
}

/** `open` on a terminal of `columns` × `rows`. */
export function openSized(columns: number, rows: number): void {
  open({ columns, rows });
}

/** Disposes what the last `open` opened, once. */
export function disposeOpened(): void {
  if (!opened) return;
  opened = false;
  provider.dispose();
  terminal.dispose();
}

/** After a question ended: the menu is gone, the cursor shows, raw mode is back off. */
export async function expectRestored(summary: string): Promise<void> {
  expect(await terminal.text()).toBe(summary);
  expect(terminal.cursorHidden()).toBe(false);
  expect(terminal.rawModes).toEqual([true, false]);
  expect(terminal.input.isRaw).toBe(false);
  expect(terminal.written.endsWith('\u001b[?2004l\u001b[?25h')).toBe(true);
}
