import type { PermissionAnswer, PermissionRequest } from 'dsh-user-interaction';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReadlineProvider } from '../../src/index.js';
import { type FakeTerminal, KEYS } from '../../src/testing.js';
import { providerOnTerminal } from '../support/question-provider.js';

const EDIT: PermissionRequest = {
  toolCallId: 'e1',
  title: 'Edit PLAN.md',
  kind: 'edit',
  paths: ['/work/project/PLAN.md'],
  edit: { path: '/work/project/PLAN.md', oldText: 'a\n', newText: 'b\n' },
  allowAlways: {
    rule: 'edit_file:PLAN.md',
    description: 'Always allow edit_file on `PLAN.md` in this folder',
  },
  rejectAlways: {
    rule: 'edit_file:PLAN.md',
    description: 'Always reject edit_file on `PLAN.md` in this folder',
  },
};

const NOTICE = 'Pasted text answers nothing here';

let terminal: FakeTerminal;
let provider: ReadlineProvider;

afterEach(() => {
  provider?.dispose();
  terminal?.dispose();
});

/** The approval on screen, with a flag that says whether it was answered yet. */
async function shown(columns = 80): Promise<{
  answer: Promise<PermissionAnswer>;
  answered: () => boolean;
}> {
  ({ terminal, provider } = providerOnTerminal({ escapeCodeTimeout: 10, columns }));
  let settled = false;
  const answer = provider.requestPermission(EDIT);
  answer.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  await terminal.waitFor('Reject (n)');
  return { answer, answered: () => settled };
}

describe('a paste at the approval screen', () => {
  it('never answers nor writes a rule: bracketed, split over chunks, or a burst of keys', async () => {
    const pastes: string[][] = [
      // Bracketed, in one chunk: `2` and Enter would have written an "always" rule.
      [`${KEYS.pasteStart}2\r${KEYS.pasteEnd}`],
      [`${KEYS.pasteStart}y${KEYS.pasteEnd}`],
      // Bracketed, each part in a chunk of its own: the `y` alone is still pasted.
      [KEYS.pasteStart, 'y', KEYS.enter, KEYS.pasteEnd],
      // No brackets (a terminal without bracketed paste): the keys arrive in one chunk.
      ['y\r'],
      ['2\n'],
      ['always'],
      [`${KEYS.down}${KEYS.enter}`],
    ];
    for (const keys of pastes) {
      const { answer, answered } = await shown();
      terminal.press(...keys);
      const screen = await terminal.waitFor(NOTICE);
      expect(answered(), JSON.stringify(keys)).toBe(false);
      expect(screen).toContain('Reject (n)');
      // A key pressed alone answers, and the notice goes.
      terminal.press('n');
      expect(await answer).toEqual({ choice: 'reject_once' });
      provider.dispose();
      terminal.dispose();
    }
  });

  it('still moves the focus and dismisses on Ctrl+C, which answers nothing', async () => {
    const moved = await shown();
    terminal.press(`${KEYS.down}${KEYS.down}`);
    expect(await terminal.waitFor('❯ 3. Reject (n)')).toContain('❯ 3. Reject (n)');
    expect(moved.answered()).toBe(false);
    terminal.press(KEYS.enter);
    expect(await moved.answer).toEqual({ choice: 'reject_once' });
    provider.dispose();
    terminal.dispose();

    const dismissed = await shown();
    terminal.press(`y${KEYS.ctrlC}`);
    await expect(dismissed.answer).rejects.toMatchObject({ code: 'ASK_CANCELLED' });
  });
});

describe('a narrow approval screen', () => {
  it('wraps an "always" choice and the hints rather than cutting them, at 40 columns', async () => {
    const { answer } = await shown(40);
    const screen = await terminal.waitFor('Always reject');
    const rows = screen.split('\n');
    const choiceRows = rows.slice(rows.findIndex((row) => row.includes('1. Allow once')));
    expect(choiceRows.join('\n')).not.toContain('…');
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(39);
    const joined = choiceRows.map((row) => row.trim()).join(' ');
    expect(joined).toContain('2. Always allow edit_file on `PLAN.md` in this folder');
    expect(joined).toContain('4. Always reject edit_file on `PLAN.md` in this folder');
    expect(joined).toContain('n or Esc reject · Ctrl+C cancels the turn');
    // The rows after the first stand under the label, past its number.
    const second = choiceRows.findIndex((row) => row.includes('2. Always allow'));
    expect(choiceRows[second + 1]).toMatch(/^ {5}\S/);
    terminal.press('2');
    expect(await answer).toEqual({ choice: 'allow_always' });
    // Collapsed, the summary says the rule whole too, under the title.
    const summary = await terminal.text();
    for (const row of summary.split('\n')) expect(row.length).toBeLessThanOrEqual(39);
    expect(summary).not.toContain('…');
    expect(summary.replace(/\s*\n {2}/g, ' ')).toContain(
      '✔ Edit PLAN.md · allowed: always allow edit_file on `PLAN.md` in this folder',
    );
  });

  it('shows the paste notice whole at 40 columns', async () => {
    await shown(40);
    terminal.press('y\r');
    const screen = await terminal.waitFor('a key to choose.');
    expect(screen.replace(/\n/g, ' ')).toContain(
      'Pasted text answers nothing here: press a key to choose.',
    );
  });
});
