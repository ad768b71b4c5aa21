import type { AskUserQuestionRequest } from 'dsh-user-interaction';
import type { ReadlineProvider } from '../../src/index.js';
import { type Pipes, TEST_ENV } from '../../src/testing.js';
import { DATABASE as MENU_DATABASE, withoutDescription } from './question-fixtures.js';
import { providerOnPipes } from './question-provider.js';

// The pipes of the line-mode tests. `pipes` and `provider` are live bindings: what the running
// test last opened. `each-file.ts` disposes them after each test (a hook registered here would
// reach only the first file of a worker).

/** The menu tests' question; line mode prints descriptions, and here only the first has one. */
export const DATABASE: AskUserQuestionRequest = {
  ...MENU_DATABASE,
  options: (MENU_DATABASE.options ?? []).map((option, index) =>
    index === 0 ? option : withoutDescription(option),
  ),
};

/** A choice with no recommended option and no typed answers. */
export const NO_RECOMMENDATION: AskUserQuestionRequest = {
  question: 'Which one?',
  options: [{ label: 'Red' }, { label: 'Blue' }],
  allowCustom: false,
};

/** The pipes the running test opened last. */
export let pipes: Pipes;
/** The provider on `pipes`. */
export let provider: ReadlineProvider;
let opened = false;

/** Opens a provider in line mode on fresh pipes. */
export function open(env: NodeJS.ProcessEnv = TEST_ENV): Pipes {
  ({ pipes, provider } = providerOnPipes({ env }));
  opened = true;
  return pipes;
}

/** Disposes the provider the last `open` opened, once. */
export function disposeOpened(): void {
  if (!opened) return;
  opened = false;
  provider.dispose();
}
