import { describe, expect, it } from 'vitest';
import { DATABASE, NO_RECOMMENDATION, open, pipes, provider } from '../support/line-mode-pipes.js';

describe('line mode', () => {
  it('is what pipes get', () => {
    open();
    expect(provider.mode).toBe('line');
  });

  it('writes a numbered list and a prompt, and a number chooses', async () => {
    open();
    const answer = provider.ask(DATABASE);
    await pipes.waitFor('Choose');
    expect(pipes.text()).toBe(
      [
        '? Database',
        '  Which database should we use?',
        '  1. Postgres (recommended)',
        '     Robust; needs a server.',
        '  2. SQLite',
        '  3. MySQL',
        'Choose 1-3 (Enter: 1): ',
      ].join('\n'),
    );
    pipes.input.write('2\n');
    expect(await answer).toEqual({ answer: 'sqlite', option: DATABASE.options?.[1] });
    expect(pipes.text().endsWith('Choose 1-3 (Enter: 1): 2\n✔ Database · SQLite\n')).toBe(true);
  });

  it('takes the recommended option for an empty line', async () => {
    open();
    pipes.input.write('\n');
    expect((await provider.ask(DATABASE)).answer).toBe('postgres');
  });

  it('asks again after an empty line when nothing is recommended', async () => {
    open();
    pipes.input.write('\n2\n');
    expect((await provider.ask(NO_RECOMMENDATION)).answer).toBe('Blue');
    expect(pipes.text()).toContain('Choose 1-2: \nType a number from 1 to 2.\nChoose 1-2: 2\n');
  });

  it('asks again for a number out of range, even where typed answers are allowed', async () => {
    open();
    pipes.input.write('4\n0\n3\n');
    const answer = await provider.ask({ ...DATABASE, allowCustom: true });
    expect(answer).toEqual({ answer: 'mysql', option: DATABASE.options?.[2] });
    expect(pipes.text()).toContain(
      'There is no option 4: type a number from 1 to 3, or =4 to answer 4 itself.',
    );
    expect(pipes.text()).toContain('There is no option 0: type a number from 1 to 3, or =0');
  });

  it('without typed answers, the message for a number out of range offers no way around', async () => {
    open();
    pipes.input.write('4\n1\n');
    expect((await provider.ask(DATABASE)).answer).toBe('postgres');
    expect(pipes.text()).toContain('There is no option 4: type a number from 1 to 3.\n');
  });

  it('chooses a numeric label by its label when the number is not a position', async () => {
    open();
    const ports = {
      question: 'Which port?',
      options: [{ label: '3000' }, { label: '8080', recommended: true }],
      allowCustom: true,
    };
    pipes.input.write('8080\n3000\n2\n');
    expect(await provider.ask(ports)).toEqual({ answer: '8080', option: ports.options[1] });
    expect(await provider.ask(ports)).toEqual({ answer: '3000', option: ports.options[0] });
    // A number in range still chooses by position.
    expect(await provider.ask(ports)).toEqual({ answer: '8080', option: ports.options[1] });
  });

  it('takes =text as a typed answer as written, numbers included', async () => {
    open();
    pipes.input.write('=5432\n= 2 \n=\n=sqlite\n');
    const custom = { ...DATABASE, allowCustom: true };
    expect(await provider.ask(custom)).toEqual({ answer: '5432' });
    expect(await provider.ask(custom)).toEqual({ answer: '2' });
    // A bare = asks again; an option's label after = is still a typed answer.
    expect(await provider.ask(custom)).toEqual({ answer: 'sqlite' });
    expect(pipes.text()).toContain('Type your answer after =, such as =5432.');
  });

  it('never takes an invisible line as an answer', async () => {
    open();
    pipes.input.write('\u200b\n\u001b\u0007\nmy-app\n');
    expect(await provider.ask({ question: 'Project name?' })).toEqual({ answer: 'my-app' });
    expect(pipes.text().match(/An answer is needed/g)).toHaveLength(1);
    expect(pipes.text().match(/escape sequences do not work here/g)).toHaveLength(1);
  });

  it('takes a typed answer by default, as the contract says', async () => {
    open();
    pipes.input.write('DuckDB\n');
    const { allowCustom: _refused, ...byDefault } = DATABASE;
    expect(await provider.ask(byDefault)).toEqual({ answer: 'DuckDB' });
    expect(pipes.text()).toContain('Choose 1-3 or type your own answer (Enter: 1): ');
  });

  it('takes other text as a typed answer where allowed, trimmed', async () => {
    open();
    pipes.input.write('  DuckDB  \n');
    expect(await provider.ask({ ...DATABASE, allowCustom: true })).toEqual({ answer: 'DuckDB' });
    expect(pipes.text()).toContain('Choose 1-3 or type your own answer (Enter: 1): ');
  });

  it('asks again for other text where only the options may be chosen', async () => {
    open();
    pipes.input.write('DuckDB\n1\n');
    expect((await provider.ask(DATABASE)).answer).toBe('postgres');
    expect(pipes.text()).toContain(
      '"DuckDB" is not one of the options: type a number from 1 to 3.',
    );
  });

  it('chooses an option typed by its label', async () => {
    open();
    pipes.input.write('sqlite\n');
    expect(await provider.ask({ ...DATABASE, allowCustom: true })).toEqual({
      answer: 'sqlite',
      option: DATABASE.options?.[1],
    });
  });

  it('reads a free-form answer, and asks again for a blank one', async () => {
    open();
    pipes.input.write('   \nmy-app\n');
    expect(await provider.ask({ question: 'Project name?' })).toEqual({ answer: 'my-app' });
    expect(pipes.text()).toContain('? Project name?\nAnswer:    \nAn answer is needed');
  });
});
