import type { AskUserQuestionRequest } from 'dsh-user-interaction';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReadlineProvider } from '../../src/index.js';
import { type FakeTerminal, KEYS, type Pipes } from '../../src/testing.js';
import { providerOnPipes, providerOnTerminal } from '../support/question-provider.js';

const ESC = '\u001b';
const WIDE = { columns: 100, rows: 30 };

/** A question whose every model-written field tries to take over the terminal. */
const HOSTILE: AskUserQuestionRequest = {
  header: `${ESC}]0;owned${String.fromCharCode(7)}Database`,
  question: `${ESC}[2J${ESC}[HWhich one?${ESC}[8mhidden${ESC}[0m\r\u009b2Jfake\u202eevil`,
  options: [
    {
      label: `${ESC}[31mRed${ESC}[0m`,
      description: `${ESC}[1A${ESC}[2Koverwritten\u0008\u0008${ESC}]52;c;Y29weQ==${String.fromCharCode(7)}`,
      recommended: true,
    },
    { label: '\u202egnp.exe\u202c', description: 'bidi \u2066isolate\u2069' },
    { label: `Tab\there${ESC}c`, value: 'reset' },
  ],
  allowCustom: true,
};

// The only sequences the UI itself writes: cursor moves, erasing, its modes and its colours.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching escape sequences is the point.
const OWN_SEQUENCE = /^\u001b\[(?:\d*[ABJK]|\?(?:25|2004)[hl]|(?:1|2|7|22|27|32|33|36|39)m)/;

function expectOnlyOwnSequences(written: string): void {
  for (let index = written.indexOf(ESC); index !== -1; index = written.indexOf(ESC, index + 1)) {
    const sequence = written.slice(index, index + 12);
    expect(sequence, JSON.stringify(sequence)).toMatch(OWN_SEQUENCE);
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  expect(written).not.toMatch(/[\u0000-\u0009\u000b\u000c\u000e-\u001a\u001c-\u001f\u007f-\u009f]/);
  expect(written).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/);
}

let terminal: FakeTerminal | undefined;
let provider: ReadlineProvider | undefined;

afterEach(() => {
  provider?.dispose();
  terminal?.dispose();
});

describe('model-written text', () => {
  it('is shown inert in every field of the interactive menu', async () => {
    ({ terminal, provider } = providerOnTerminal(WIDE));
    const titles: string[] = [];
    terminal.terminal.onTitleChange((title) => titles.push(title));
    const answer = provider.ask(HOSTILE);
    const screen = await terminal.waitFor('Red');
    for (const field of [
      '? ^[]0;owned^GDatabase',
      '^[[2J^[[HWhich one?^[[8mhidden^[[0m',
      '<U+009B>2Jfake<U+202E>evil',
      '❯ 1. ^[[31mRed^[[0m (recommended)',
      '^[[1A^[[2Koverwritten^H^H^[]52;c;Y29weQ==^G',
      '2. <U+202E>gnp.exe<U+202C>',
      '3. Tab here^[c',
    ]) {
      expect(screen).toContain(field);
    }
    terminal.press(KEYS.down);
    expect(await terminal.text()).toContain('bidi <U+2066>isolate<U+2069>');
    terminal.press(KEYS.down, KEYS.enter);
    expect(await answer).toEqual({ answer: 'reset', option: HOSTILE.options?.[2] });
    expect(await terminal.text()).toBe('✔ ^[]0;owned^GDatabase · Tab here^[c');
    expect(titles).toEqual([]);
    expectOnlyOwnSequences(terminal.written);
  });

  it('is shown inert when the question is the summary title', async () => {
    ({ terminal, provider } = providerOnTerminal(WIDE));
    const answer = provider.ask({ question: `${ESC}[31mRed?`, options: [{ label: 'Yes' }] });
    await terminal.waitFor('Yes');
    terminal.press(KEYS.enter);
    await answer;
    expect(await terminal.text()).toBe('✔ ^[[31mRed? · Yes');
    expectOnlyOwnSequences(terminal.written);
  });

  it('is shown inert when the person pastes control or bidi characters as an answer', async () => {
    ({ terminal, provider } = providerOnTerminal(WIDE));
    const answer = provider.ask({ question: 'Name?' });
    await terminal.waitFor('Name?');
    terminal.press(`${KEYS.pasteStart}abc\u202edef${KEYS.pasteEnd}`);
    expect(await terminal.text()).toContain('❯ abc<U+202E>def');
    terminal.press(KEYS.enter);
    expect(await answer).toEqual({ answer: 'abc\u202edef' });
    expect(await terminal.text()).toBe('✔ Name? · abc<U+202E>def');
    expectOnlyOwnSequences(terminal.written);
  });

  it('keeps every character of a pasted escape sequence, shown inert, and answers with the paste', async () => {
    ({ terminal, provider } = providerOnTerminal(WIDE));
    const answer = provider.ask({ question: 'Name?' });
    await terminal.waitFor('Name?');
    const pasted = `ok ${ESC}[31mred${ESC}[0m ${ESC}]0;title\u0007 end`;
    terminal.press(`${KEYS.pasteStart}${pasted}${KEYS.pasteEnd}`);
    expect(await terminal.text()).toContain('❯ ok ^[[31mred^[[0m ^[]0;title^G end');
    terminal.press(KEYS.enter);
    expect(await answer).toEqual({ answer: pasted });
    expect(await terminal.text()).toBe('✔ Name? · ok ^[[31mred^[[0m ^[]0;title^G end');
    expectOnlyOwnSequences(terminal.written);
  });

  it('takes Esc, arrows and line breaks inside a paste as text, never as keys', async () => {
    ({ terminal, provider } = providerOnTerminal({ ...WIDE, escapeCodeTimeout: 10 }));
    const answer = provider.ask({
      question: 'Pick one',
      options: [{ label: 'A' }],
      allowCustom: true,
    });
    await terminal.waitFor('Pick one');
    // Each part alone would decline, move the focus, choose an option or submit.
    terminal.press(`${KEYS.pasteStart}${ESC} 1${KEYS.up}x\r\ny\tz${ESC}b${KEYS.pasteEnd}`);
    expect(await terminal.text()).toContain('❯ ✎  ^[ 1^[[Ax y z^[b');
    terminal.press(KEYS.enter);
    expect(await answer).toEqual({ answer: `${ESC} 1${KEYS.up}x y z${ESC}b` });
    expectOnlyOwnSequences(terminal.written);
  });

  it('is shown inert in line mode, answers echoed included', async () => {
    let pipes: Pipes;
    ({ pipes, provider } = providerOnPipes());
    pipes.input.write(`${ESC}[2Jnonsense\n${ESC}]0;x\u0007\n2\n`);
    const answer = await provider.ask({ ...HOSTILE, allowCustom: false });
    expect(answer.option).toBe(HOSTILE.options?.[1]);
    const text = pipes.text();
    expect(text).toContain('? ^[]0;owned^GDatabase');
    expect(text).toContain('  1. ^[[31mRed^[[0m (recommended)');
    expect(text).toContain('^[[2Jnonsense');
    // An escape sequence is never part of an answer: the line asks again.
    expect(text.match(/escape sequences do not work here/g)).toHaveLength(2);
    expect(text).toContain('✔ ^[]0;owned^GDatabase · <U+202E>gnp.exe<U+202C>');
    expect(text).not.toContain(ESC);
    expectOnlyOwnSequences(text);
  });

  it('never takes an escape sequence into a typed answer: the line asks again, shown inert', async () => {
    let pipes: Pipes;
    ({ pipes, provider } = providerOnPipes());
    pipes.input.write(`name ${ESC}[1m\nname \u0007bold\n`);
    const answer = await provider.ask({ question: 'Name?' });
    // Other control characters are kept for the model, and shown inert.
    expect(answer).toEqual({ answer: 'name \u0007bold' });
    expect(pipes.text()).toContain('name ^[[1m\nArrow keys and other escape sequences');
    expect(pipes.text()).toContain('✔ Name? · name ^Gbold');
    expect(pipes.text()).not.toContain(ESC);
  });
});
