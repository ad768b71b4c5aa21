import { describe, expect, it } from 'vitest';
import { KEYS } from '../../src/testing.js';
import { expectRestored, open, provider, terminal } from '../support/menu-terminal.js';
import { PLAN } from '../support/question-fixtures.js';

describe('several questions in the interactive menu', () => {
  it('filters each list by typing; a filter left on a page is not its answer', async () => {
    open();
    const answers = provider.askAll(PLAN);
    await terminal.waitFor('TypeScript');
    terminal.press('g', 'o');
    expect(await terminal.waitFor('1 of 2 match "go"')).toContain('❯ 2. ( ) Go');
    terminal.press(KEYS.enter);
    await terminal.waitFor('Question 2 of 3');
    terminal.press(...'svc', KEYS.enter);
    await terminal.waitFor('Question 3 of 3');
    // A search typed and left: the page has no answer yet.
    terminal.press('d', 'o');
    expect(await terminal.waitFor('1 of 3 match "do"')).toContain('❯ 3. [ ] Docs');
    terminal.press(KEYS.tab);
    const review = await terminal.waitFor('Review your answers');
    expect(review).toContain('Features · not answered yet');
    terminal.press(KEYS.shiftTab);
    await terminal.waitFor('1 of 3 match "do"');
    // Space ticks the match and clears the filter; the next filter finds another.
    terminal.press(' ');
    expect(await terminal.waitFor('[x] Docs')).not.toContain('match');
    terminal.press('t', 'e', 's', 't', KEYS.enter);
    await terminal.waitFor('[x] Tests');
    terminal.press(KEYS.enter);
    await terminal.waitFor('Review your answers');
    terminal.press(KEYS.enter);
    const { answers: given } = await answers;
    expect(given.map((item) => [item.id, item.answers])).toEqual([
      ['language', ['Go']],
      ['name', ['svc']],
      ['features', ['Tests', 'Docs']],
    ]);
  });

  it('shows the first question with its place and every question by name', async () => {
    open();
    void provider.askAll(PLAN).catch(() => {});
    expect(await terminal.waitFor('TypeScript')).toBe(
      [
        'Question 1 of 3  [Language] · Name · Features · Review',
        '? Language',
        '  Which language?',
        '',
        '❯ 1. ( ) TypeScript (recommended)',
        '  2. ( ) Go',
        '',
        '         Typed JavaScript.',
        '↑↓ move · Enter select · 1-2 choose · Tab next question · Shift+Tab back',
        'Esc decline · Ctrl+C cancel',
      ].join('\n'),
    );
  });

  it('is answered question by question, reviewed, submitted, and sums up every answer', async () => {
    open();
    const answer = provider.askAll(PLAN);
    await terminal.waitFor('TypeScript');
    terminal.press('2');
    await terminal.waitFor('Question 2 of 3  ✔ Language · [Name]');
    terminal.press('m', 'y', '-', 'a', 'p', 'p', KEYS.enter);
    expect(await terminal.waitFor('Question 3 of 3')).toContain(
      [
        '❯ 1. [ ] Auth',
        '  2. [ ] Tests',
        '  3. [ ] Docs',
        '  ✎      Type your own answer',
        '↑↓ move · Space tick · Enter confirm · 1-3 tick · or type an answer',
      ].join('\n'),
    );
    terminal.press(' ', '3');
    expect(await terminal.waitFor('[x] Docs')).toContain(
      '  1. [x] Auth\n  2. [ ] Tests\n❯ 3. [x] Docs',
    );
    terminal.press(KEYS.down, 'a', 'u', 'd', 'i', 't', KEYS.enter);
    expect(await terminal.waitFor('Review your answers')).toBe(
      [
        'Review  ✔ Language · ✔ Name · ✔ Features · [Review]',
        '? New service: Review your answers',
        '  1. Language · Go',
        '  2. Name · my-app',
        // What was typed is told apart from the options' labels.
        '  3. Features · Auth, Docs, typed: audit',
        'Enter submit · 1-3 change an answer · Shift+Tab back · Esc decline',
        'Ctrl+C cancel',
      ].join('\n'),
    );
    terminal.press(KEYS.enter);
    expect(await answer).toEqual({
      answers: [
        { id: 'language', answers: ['Go'], options: [PLAN.questions[0]?.options?.[1]] },
        { id: 'name', answers: ['my-app'], options: [], custom: 'my-app' },
        {
          id: 'features',
          answers: ['auth', 'Docs', 'audit'],
          options: [PLAN.questions[2]?.options?.[0], PLAN.questions[2]?.options?.[2]],
          custom: 'audit',
        },
      ],
    });
    await expectRestored(
      ['✔ Language · Go', '✔ Name · my-app', '✔ Features · Auth, Docs, audit'].join('\n'),
    );
  });

  it('goes back from the review to a question, keeping every answer, and shows the choice', async () => {
    open();
    const answer = provider.askAll(PLAN);
    await terminal.waitFor('TypeScript');
    terminal.press(KEYS.enter, 'x', KEYS.enter, ' ', KEYS.enter);
    await terminal.waitFor('Review your answers');
    terminal.press('1');
    expect(await terminal.waitFor('Question 1 of 3')).toContain('❯ 1. (*) TypeScript');
    terminal.press(KEYS.right);
    expect(await terminal.waitFor('Question 2 of 3')).toContain('❯ x');
    terminal.press(KEYS.tab);
    expect(await terminal.waitFor('Question 3 of 3')).toContain('[x] Auth');
    terminal.press(KEYS.shiftTab, KEYS.shiftTab);
    await terminal.waitFor('Question 1 of 3');
    terminal.press(KEYS.down, KEYS.enter);
    await terminal.waitFor('Review your answers');
    expect(await terminal.text()).toContain('1. Language · Go');
    terminal.press(KEYS.enter);
    await expect(answer).resolves.toMatchObject({
      answers: [{ answers: ['Go'] }, { answers: ['x'] }, { answers: ['auth'] }],
    });
  });

  it('refuses to submit with a question unanswered, and names it', async () => {
    open();
    void provider.askAll(PLAN).catch(() => {});
    await terminal.waitFor('TypeScript');
    terminal.press(KEYS.shiftTab);
    await terminal.waitFor('not answered yet');
    terminal.press(KEYS.enter);
    expect(await terminal.waitFor('has no answer yet')).toContain(
      'Question 1 has no answer yet: press 1 to answer it.',
    );
    expect(provider.pending).toBe(1);
  });

  it('says so when Enter confirms nothing, and keeps a typed answer next to the ticks', async () => {
    open();
    const answer = provider.askAll({
      questions: [PLAN.questions[2] as never, PLAN.questions[1] as never],
    });
    await terminal.waitFor('Auth');
    terminal.press(KEYS.enter);
    expect(await terminal.waitFor('Tick at least one')).toContain(
      'Tick at least one option with Space, or type an answer.',
    );
    // A typed answer alone is an answer too; going away and back keeps it.
    terminal.press(KEYS.end, 'm', 'o', 'r', 'e', KEYS.tab);
    await terminal.waitFor('Question 2 of 2');
    terminal.press(KEYS.shiftTab);
    expect(await terminal.waitFor('Question 1 of 2')).toContain('more');
    terminal.press(KEYS.enter, 'n', KEYS.enter);
    await terminal.waitFor('Review your answers');
    terminal.press(KEYS.enter);
    await expect(answer).resolves.toMatchObject({
      answers: [{ id: 'features', answers: ['more'], options: [], custom: 'more' }, { id: 'name' }],
    });
  });
});
