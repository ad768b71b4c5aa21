import type { AskUserQuestionRequest } from 'dsh-user-interaction';
import { describe, expect, it } from 'vitest';
import { KEYS } from '../../src/testing.js';
import { errorOf } from '../support/error-of.js';
import { expectRestored, open, provider, terminal } from '../support/menu-terminal.js';
import { DATABASE } from '../support/question-fixtures.js';

describe('a typed answer', () => {
  const CUSTOM: AskUserQuestionRequest = { ...DATABASE, allowCustom: true };

  it('offers the "Type your own answer" row by default, and not with allowCustom: false', async () => {
    open();
    const { allowCustom: _refused, ...byDefault } = DATABASE;
    const first = provider.ask(byDefault);
    expect(await terminal.waitFor('Postgres')).toContain('✎  Type your own answer');
    terminal.press(...'DuckDB', KEYS.enter);
    expect(await first).toEqual({ answer: 'DuckDB' });
    const second = provider.ask(DATABASE);
    const screen = await terminal.waitFor('❯ 1. Postgres');
    expect(screen).not.toContain('Type your own answer');
    terminal.press(KEYS.escape);
    await expect(second).rejects.toMatchObject({ code: 'ASK_DECLINED' });
  });

  it('adds a "Type your own answer" row that opens an inline editor', async () => {
    open();
    const answer = provider.ask(CUSTOM);
    expect(await terminal.waitFor('Postgres')).toContain('✎  Type your own answer');
    terminal.press(KEYS.end);
    expect(await terminal.text()).toContain('❯ ✎  Type your own answer');
    terminal.press(KEYS.enter);
    expect(await terminal.text()).toContain('Enter submit · Esc back to options · Ctrl+C cancel');
    terminal.press(...'  DuckDB  ', KEYS.enter);
    expect(await answer).toEqual({ answer: 'DuckDB' });
    await expectRestored('✔ Database · DuckDB');
  });

  it('jumps to the editor when letters are typed in the menu', async () => {
    open();
    const answer = provider.ask(CUSTOM);
    await terminal.waitFor('Postgres');
    terminal.press('C', 'o');
    expect(await terminal.text()).toContain('❯ ✎  Co');
    terminal.press(...'ckroach', KEYS.enter);
    expect(await answer).toEqual({ answer: 'Cockroach' });
  });

  it('goes back to the menu with Esc, keeping the draft', async () => {
    open();
    const answer = provider.ask(CUSTOM);
    await terminal.waitFor('Postgres');
    terminal.press('d', 'u', 'c', 'k', KEYS.escape);
    await terminal.waitFor('Type your own answer: duck');
    expect(await terminal.text()).toContain('Esc decline');
    terminal.press(KEYS.enter);
    await terminal.waitFor('Esc back to options');
    terminal.press('d', 'b', KEYS.enter);
    expect(await answer).toEqual({ answer: 'duckdb' });
  });

  it('does not submit a blank answer', async () => {
    open();
    const answer = provider.ask(CUSTOM);
    await terminal.waitFor('Postgres');
    terminal.press(KEYS.end, KEYS.enter, ' ', ' ', KEYS.enter);
    expect(await terminal.text()).toContain('Type an answer first');
    terminal.press('x', KEYS.enter);
    expect(await answer).toEqual({ answer: 'x' });
  });

  it('edits with the usual readline keys', async () => {
    open();
    const answer = provider.ask({ question: 'Project name?' });
    await terminal.waitFor('Project name?');
    terminal.press(...'my app', KEYS.ctrlA, ...'new ', KEYS.ctrlE, KEYS.backspace, 'x');
    expect(await terminal.text()).toContain('❯ new my apx');
    terminal.press(KEYS.ctrlW);
    expect(await terminal.text()).toContain('❯ new my');
    terminal.press(KEYS.ctrlU, ...'final', KEYS.left, KEYS.left, KEYS.delete, KEYS.enter);
    expect(await answer).toEqual({ answer: 'finl' });
  });

  it('treats a question without options as a line editor straight away', async () => {
    open();
    const answer = provider.ask({ header: 'Name', question: 'What should the project be called?' });
    expect(await terminal.waitFor('called?')).toBe(
      [
        '? Name',
        '  What should the project be called?',
        '',
        // The drawn cursor is a reverse-video space after the pointer.
        '❯  ',
        'Enter submit · Esc decline · Ctrl+C cancel',
      ].join('\n'),
    );
    terminal.press(...'my-app', KEYS.enter);
    expect(await answer).toEqual({ answer: 'my-app' });
    await expectRestored('✔ Name · my-app');
  });

  it('declines a question without options with Esc', async () => {
    open();
    const answer = provider.ask({ question: 'Project name?' });
    await terminal.waitFor('Project name?');
    terminal.press('a', KEYS.escape);
    expect((await errorOf(answer)).code).toBe('ASK_DECLINED');
    await expectRestored('✖ Project name? · declined');
  });

  it('keeps a pasted line break as a space instead of submitting', async () => {
    open();
    const answer = provider.ask({ question: 'Describe it' });
    await terminal.waitFor('Describe it');
    terminal.press(`${KEYS.pasteStart}first line\rsecond line${KEYS.pasteEnd}`);
    expect(await terminal.text()).toContain('❯ first line second line');
    terminal.press(KEYS.enter);
    expect(await answer).toEqual({ answer: 'first line second line' });
  });
});
