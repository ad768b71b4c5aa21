import type { AskUserQuestionsRequest } from 'dsh-user-interaction';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReadlineProvider } from '../../src/index.js';
import type { Pipes } from '../../src/testing.js';
import { PLAN as MENU_PLAN, withoutDescription } from '../support/question-fixtures.js';
import { providerOnPipes } from '../support/question-provider.js';

/** The menu tests' questions, without their header and descriptions (line mode prints both). */
const PLAN: AskUserQuestionsRequest = {
  questions: MENU_PLAN.questions.map((item) =>
    item.options === undefined ? item : { ...item, options: item.options.map(withoutDescription) },
  ),
};
const FEATURES = PLAN.questions[2] as AskUserQuestionsRequest['questions'][number];

let pipes: Pipes;
let provider: ReadlineProvider;

function open(): Pipes {
  ({ pipes, provider } = providerOnPipes());
  return pipes;
}

afterEach(() => provider?.dispose());

describe('several questions in line mode', () => {
  it('asks them in order, takes 1,3 for several choices, and sums up every answer at the end', async () => {
    open();
    pipes.input.write('2\nmy-app\n1,3\n');
    const answer = await provider.askAll(PLAN);
    expect(answer.answers.map((item) => item.answers)).toEqual([
      ['Go'],
      ['my-app'],
      ['auth', 'Docs'],
    ]);
    expect(pipes.text()).toBe(
      [
        'Question 1 of 3',
        '? Language',
        '  Which language?',
        '  1. TypeScript (recommended)',
        '  2. Go',
        'Choose 1-2 (Enter: 1): 2',
        'Question 2 of 3',
        '? Name',
        '  What should it be called?',
        'Answer: my-app',
        'Question 3 of 3',
        '? Features',
        '  Which features?',
        '  1. Auth',
        '  2. Tests',
        '  3. Docs',
        'Choose any of 1-3, such as 1,3, and/or =your own answer: 1,3',
        '✔ Language · Go',
        '✔ Name · my-app',
        '✔ Features · Auth, Docs',
        '',
      ].join('\n'),
    );
  });

  it.each([
    ['1 3', [0, 2], undefined],
    ['3, 1', [0, 2], undefined],
    ['2,2', [1], undefined],
    ['tests', [1], undefined],
    ['=metrics', [], 'metrics'],
    ['1 3 =a changelog', [0, 2], 'a changelog'],
    ['Grafana dashboards', [], 'Grafana dashboards'],
  ])('reads %j for several choices', async (line, indexes, custom) => {
    open();
    pipes.input.write(`${line}\n`);
    const { answers } = await provider.askAll({ questions: [FEATURES] });
    const options = FEATURES.options ?? [];
    expect(answers[0]?.options).toEqual(indexes.map((index) => options[index]));
    expect(answers[0]?.custom).toBe(custom);
  });

  it('asks again for that question only after a wrong line, saying why', async () => {
    open();
    pipes.input.write('1\nx\n0,2\n=\n\n2\n');
    const answer = await provider.askAll({
      questions: [PLAN.questions[0] as never, { ...FEATURES, allowCustom: false }],
    });
    expect(answer.answers.map((item) => item.answers)).toEqual([['TypeScript'], ['Tests']]);
    const text = pipes.text();
    expect(text).toContain(
      '"x" is not one of the options: type a number from 1 to 3, such as 1,3.',
    );
    expect(text).toContain('There is no option 0: type a number from 1 to 3.');
    expect(text).toContain('This question takes only its options: type a number from 1 to 3.');
    expect(text).toContain('Type one or more numbers from 1 to 3, such as 1,3.');
    // The first question was asked once.
    expect(text.split('? Language').length).toBe(2);
  });

  it.each([
    [2, 'Choose any of 1-2, such as 1,2: ', 'type a number from 1 to 2, such as 1,2.'],
    [1, 'Choose any of 1: ', 'type the number 1.'],
  ])('gives an example of numbers that exist with %i options', async (count, prompt, retry) => {
    open();
    pipes.input.write('x\n1\n');
    const options = (FEATURES.options ?? []).slice(0, count);
    await provider.askAll({ questions: [{ ...FEATURES, allowCustom: false, options }] });
    expect(pipes.text()).toContain(`\n${prompt}x\n`);
    expect(pipes.text()).toContain(`"x" is not one of the options: ${retry}`);
  });

  it('names the set by its header, shown inert', async () => {
    open();
    pipes.input.write('x\n');
    await provider.askAll({ header: 'Plan\u001b[2J', questions: [PLAN.questions[1] as never] });
    expect(pipes.text().startsWith('Plan^[[2J\n? Name\n')).toBe(true);
  });

  it('the end of input ends every question, none reads as answered', async () => {
    open();
    pipes.input.end('2\n');
    await expect(provider.askAll(PLAN)).rejects.toMatchObject({ code: 'INPUT_CLOSED' });
    const text = pipes.text();
    expect(text).toContain('⊘ Language · not answered: input closed');
    expect(text).toContain('⊘ Features · not answered: input closed');
    expect(text).not.toContain('✔');
  });

  it('is withdrawn whole by its signal, without consuming the next line', async () => {
    open();
    const turn = new AbortController();
    const asking = provider.askAll({ ...PLAN, signal: turn.signal });
    await pipes.waitFor('Choose 1-2');
    turn.abort();
    await expect(asking).rejects.toMatchObject({ code: 'ASK_ABORTED' });
    expect(pipes.text()).toContain('⊘ Name · withdrawn');
    pipes.input.write('1\n');
    await expect(
      provider.ask({ question: 'Next?', options: [{ label: 'A' }] }),
    ).resolves.toMatchObject({
      answer: 'A',
    });
  });
});
