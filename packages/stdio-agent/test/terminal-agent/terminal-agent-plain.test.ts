import { ModelError, type ModelEvent } from 'dsh-agent';
import { deferred, type ModelStep, stepModel } from 'dsh-agent/testing';
import { type AskUserQuestionOption, toToolError } from 'dsh-user-interaction';
import { describe, expect, it, vi } from 'vitest';
import { type FakeTerminal, TEST_ENV } from '../../src/testing.js';
import {
  manualClock,
  startAgent,
  startPipedAgent,
  waitForPrompt,
} from '../support/agent-harness.js';

const ESCAPE = '\u001b';

/** What was written, line ends as the terminal's own (cooked) mode shows them. */
const writtenText = (terminal: FakeTerminal): string => terminal.written.replaceAll('\r\n', '\n');

/** A step that asks one question: which database, among `options`. */
function askDatabase(options: readonly AskUserQuestionOption[]): ModelStep {
  return async function* () {
    yield {
      type: 'tool-call',
      call: {
        id: 'call-1',
        name: 'ask_user_question',
        arguments: JSON.stringify({ question: 'Which database?', options }),
      },
    };
    yield { type: 'finish', reason: 'tool-calls' };
  };
}

/** The retry of a busy server: the second of three attempts, sent at once. */
const BUSY_RETRY: ModelEvent = {
  type: 'retry',
  attempt: 2,
  attempts: 3,
  delayMs: 0,
  error: toToolError(new ModelError('The server is busy.', 'MODEL_UNAVAILABLE')),
};

/** A turn that asks one question, then retries its request once before it answers. */
const model = () =>
  stepModel(
    askDatabase([{ label: 'Postgres', recommended: true }, { label: 'SQLite' }]),
    async function* () {
      yield BUSY_RETRY;
      yield { type: 'text-delta', text: 'Done.' };
      yield { type: 'finish', reason: 'stop' };
    },
  );

describe('plain mode on a terminal', () => {
  it.each([
    ['plain: true', { plain: true }],
    ['TERM=dumb', { env: { ...TEST_ENV, TERM: 'dumb' } }],
  ] as const)(
    '%s: a numbered list and a prompt, no raw mode, status line or styling',
    async (_name, options) => {
      const clock = manualClock();
      const { terminal, type } = startAgent({ model: model(), clock, ...options });
      await vi.waitFor(() => expect(writtenText(terminal)).toMatch(/> $/));
      type('hello');
      const prompt = 'Choose 1-2 or type your own answer (Enter: 1; Ctrl+D: decline): ';
      // A terminal in its own (cooked) mode turns each line feed into a new line: the fake one
      // does not, so what was written is read rather than the screen.
      await vi.waitFor(() => expect(writtenText(terminal)).toContain(prompt));
      // Time passes with nobody answering: no status line comes.
      clock.advance(5_000);
      type('2');
      await vi.waitFor(() => expect(writtenText(terminal)).toContain('Done.'));
      await vi.waitFor(() => expect(writtenText(terminal)).toMatch(/Done\.\n\n> $/));
      const written = writtenText(terminal);
      expect(written.slice(written.indexOf('? Which database?'))).toBe(
        [
          '? Which database?',
          '  1. Postgres (recommended)',
          '  2. SQLite',
          // The terminal echoes what is typed, and its Enter: nothing is written for them.
          `${prompt}✔ Which database? · SQLite`,
          '↻ The server is busy. Retrying now, attempt 2 of 3.',
          'Done.',
          '',
          '> ',
        ].join('\n'),
      );
      expect(terminal.rawModes).toEqual([]);
      expect(terminal.written).not.toContain(ESCAPE);
    },
  );
});

describe('plain mode: Esc and escape sequences at a question', () => {
  it('Esc alone declines, never the recommended option; arrow keys ask again', async () => {
    const { terminal, type } = startAgent({ model: model(), plain: true });
    await vi.waitFor(() => expect(writtenText(terminal)).toMatch(/> $/));
    type('hello');
    await vi.waitFor(() => expect(writtenText(terminal)).toContain('Ctrl+D: decline): '));
    // A cooked terminal sends what was typed at Enter: the up arrow, then Enter.
    type('\u001b[A');
    await vi.waitFor(() =>
      expect(writtenText(terminal)).toContain(
        'Arrow keys and other escape sequences do not work here: type the answer again. (Esc alone declines.)',
      ),
    );
    type('\u001b');
    await vi.waitFor(() => expect(writtenText(terminal)).toMatch(/Done\.\n\n> $/));
    const written = writtenText(terminal);
    expect(written).toContain('Which database? · declined');
    expect(written).not.toContain('· Postgres');
  });
});

describe('NO_COLOR on a terminal', () => {
  it('draws the status, retry and error lines and the question without a colour', async () => {
    const clock = manualClock();
    const gate = deferred();
    const { terminal, type } = startAgent({
      model: stepModel(askDatabase([{ label: 'SQLite' }]), async function* () {
        yield BUSY_RETRY;
        await gate.promise;
        throw new ModelError('The server is gone.', 'MODEL_CONNECTION');
      }),
      clock,
      env: { ...TEST_ENV, NO_COLOR: '1' },
    });
    await waitForPrompt(terminal);
    type('hello');
    await terminal.waitFor('❯ 1. SQLite');
    terminal.press('\r');
    await terminal.waitFor('Retrying now, attempt 2 of 3.');
    clock.advance(2_000);
    await terminal.waitFor('Waiting for the model… 2 s');
    gate.resolve();
    await terminal.waitFor('The server is gone.');
    await waitForPrompt(terminal);
    // Cursor movement and the editor's reverse-video cursor, but no colour and no other attribute.
    const attributes = [
      ...terminal.written.matchAll(new RegExp(`${ESCAPE}\\[([0-9;]*)m`, 'g')),
    ].map((match) => match[1]);
    expect(attributes.filter((codes) => codes !== '7' && codes !== '27')).toEqual([]);
    expect(terminal.written).toContain(`${ESCAPE}[`);
  });
});

describe('plain mode: the text of the agent wraps at words, with no escape sequence', () => {
  /** Streams the text in deltas that cut words in two. */
  const streamed = () =>
    stepModel(async function* () {
      for (const text of [
        'The quick brown fox ju',
        'mps over the la',
        'zy dog, then a super',
        'califragilisticexpialidocious word.',
      ]) {
        yield { type: 'text-delta', text };
      }
      yield { type: 'finish', reason: 'stop' };
    });

  it('breaks the line before a word that would pass the width, and cuts a longer word', async () => {
    const { terminal, type } = startAgent({ model: streamed(), plain: true, columns: 20 });
    await vi.waitFor(() => expect(writtenText(terminal)).toMatch(/> $/));
    type('hello');
    // A terminal in its own (cooked) mode echoes the line and its Enter; the fake one does not.
    terminal.terminal.write('hello\r\n');
    await vi.waitFor(() => expect(writtenText(terminal)).toMatch(/word\.\n\n> $/));
    // A space written at the end of a row shows as nothing.
    const screen = (await terminal.screen()).map((row) => row.trimEnd()).join('\n');
    // Rows of 19: a terminal that is not drawn on may break the line itself on the last column.
    expect(screen.slice(screen.indexOf('The quick')).trimEnd()).toBe(
      [
        'The quick brown fox',
        'jumps over the lazy',
        'dog, then a',
        'supercalifragilisti',
        'cexpialidocious',
        'word.',
        '',
        '>',
      ].join('\n'),
    );
    expect(terminal.written).not.toContain(ESCAPE);
  });

  it('writes a pipe as the text comes, unwrapped', async () => {
    const { pipes } = startPipedAgent({ model: streamed() });
    pipes.input.write('hello\n');
    await pipes.waitFor('word.');
    expect(pipes.text()).toContain(
      'The quick brown fox jumps over the lazy dog, then a supercalifragilisticexpialidocious word.',
    );
    pipes.input.end();
  });
});
