import { type AskUserQuestionRequest, REQUEST_LIMITS } from 'dsh-user-interaction';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReadlineProvider } from '../../src/index.js';
import { type Pipes, TEST_ENV } from '../../src/testing.js';
import { DATABASE as MENU_DATABASE, withoutDescription } from '../support/question-fixtures.js';
import { providerOnPipes } from '../support/question-provider.js';

/** The menu tests' question; line mode prints descriptions, and here only the first has one. */
const DATABASE: AskUserQuestionRequest = {
  ...MENU_DATABASE,
  options: (MENU_DATABASE.options ?? []).map((option, index) =>
    index === 0 ? option : withoutDescription(option),
  ),
};

const NO_RECOMMENDATION: AskUserQuestionRequest = {
  question: 'Which one?',
  options: [{ label: 'Red' }, { label: 'Blue' }],
  allowCustom: false,
};

let pipes: Pipes;
let provider: ReadlineProvider;

function open(env: NodeJS.ProcessEnv = TEST_ENV): Pipes {
  ({ pipes, provider } = providerOnPipes({ env }));
  return pipes;
}

async function errorOf(promise: Promise<unknown>): Promise<{ code?: string; message?: string }> {
  return promise.then(
    () => {
      throw new Error('Expected the question to fail.');
    },
    (error: { code?: string }) => error,
  );
}

afterEach(() => provider?.dispose());

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

  it('consumes piped answers for successive questions in order, none lost', async () => {
    open();
    pipes.input.write('2\n\nmy-app\n3\n');
    const first = await provider.ask(DATABASE);
    const second = await provider.ask(DATABASE);
    const third = await provider.ask({ question: 'Name?' });
    const fourth = await provider.ask(DATABASE);
    expect([first, second, third, fourth].map((answer) => answer.answer)).toEqual([
      'sqlite',
      'postgres',
      'my-app',
      'mysql',
    ]);
  });

  it('asks queued questions one after the other, each with its own line', async () => {
    open();
    const answers = Promise.all([
      provider.ask(DATABASE),
      provider.ask({ question: 'Name?' }),
      provider.ask(DATABASE),
    ]);
    expect(provider.pending).toBe(3);
    pipes.input.write('3\nmy-app\n1\n');
    expect((await answers).map((answer) => answer.answer)).toEqual(['mysql', 'my-app', 'postgres']);
    expect(provider.pending).toBe(0);
  });

  it('rejects the active question, the queued ones and every later one with INPUT_CLOSED at end of input', async () => {
    open();
    const active = provider.ask(DATABASE);
    const queued = provider.ask({ question: 'Name?' });
    await pipes.waitFor('Choose');
    pipes.input.end();
    expect((await errorOf(active)).code).toBe('INPUT_CLOSED');
    expect((await errorOf(queued)).code).toBe('INPUT_CLOSED');
    expect((await errorOf(provider.ask(DATABASE))).code).toBe('INPUT_CLOSED');
    expect(pipes.text()).toContain(
      'Choose 1-3 (Enter: 1): \n⊘ Database · not answered: input closed\n',
    );
  });

  it('answers from the lines left before the end of input, then reports INPUT_CLOSED', async () => {
    open();
    pipes.input.end('1\n');
    expect((await provider.ask(DATABASE)).answer).toBe('postgres');
    expect((await errorOf(provider.ask(DATABASE))).code).toBe('INPUT_CLOSED');
  });

  it('rejects at once when the input had already ended', async () => {
    const { input } = open();
    input.end();
    input.resume();
    await new Promise((resolve) => input.once('end', resolve));
    expect((await errorOf(provider.ask(DATABASE))).code).toBe('INPUT_CLOSED');
    expect(pipes.text()).toBe('');
  });

  it('fails with ASK_FAILED, never uncaught nor waiting for a line, when the output’s reader is gone (EPIPE)', async () => {
    open();
    const asked = provider.ask({ question: 'Name?' });
    const approval = provider.requestPermission({
      toolCallId: 'c1',
      title: 'Run ls',
      kind: 'execute',
      command: { command: 'ls', cwd: '/work' },
    });
    await pipes.waitFor('Answer: ');
    // `| head` read what it wanted and left: the next write fails, reported later.
    const failing = pipes.output as unknown as { _write: (...args: unknown[]) => void };
    failing._write = (_chunk, _encoding, callback) => {
      (callback as (error: Error) => void)(
        Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }),
      );
    };
    // A blank line: the question says an answer is needed, and asks again, into the void.
    pipes.input.write('\n');
    expect((await errorOf(asked)).code).toBe('ASK_FAILED');
    // Nobody sees the next question either: it fails at once, with the input still open.
    expect((await errorOf(approval)).code).toBe('ASK_FAILED');
    expect((await errorOf(provider.ask({ question: 'Later?' }))).code).toBe('ASK_FAILED');
    await vi.waitFor(() => expect(pipes.output.listenerCount('error')).toBe(0));
    provider.dispose();

    // The answer came, and the lines that close the question are what fails: it stays answered,
    // and the failure reported after it is handled, not uncaught.
    open();
    const answered = provider.ask({ question: 'Name?' });
    await pipes.waitFor('Answer: ');
    const closed = pipes.output as unknown as { _write: (...args: unknown[]) => void };
    closed._write = (_chunk, _encoding, callback) => {
      (callback as (error: Error) => void)(
        Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }),
      );
    };
    pipes.input.write('alice\n');
    expect(await answered).toEqual({ answer: 'alice' });
    await vi.waitFor(() => expect(pipes.output.closed).toBe(true));
    expect((await errorOf(provider.ask({ question: 'Later?' }))).code).toBe('ASK_FAILED');
    await vi.waitFor(() => expect(pipes.output.listenerCount('error')).toBe(0));
  });

  it('withdraws a question whose signal aborts, without consuming the next line', async () => {
    open();
    const controller = new AbortController();
    const withdrawn = provider.ask({ ...DATABASE, signal: controller.signal });
    await pipes.waitFor('Choose');
    controller.abort();
    expect((await errorOf(withdrawn)).code).toBe('ASK_ABORTED');
    expect(pipes.text()).toContain('Choose 1-3 (Enter: 1): \n⊘ Database · withdrawn\n');
    pipes.input.write('3\n');
    expect((await provider.ask(DATABASE)).answer).toBe('mysql');
  });

  it('says a question timed out when its signal gives ASK_TIMEOUT as the reason', async () => {
    const { UserInteractionError } = await import('dsh-user-interaction');
    open();
    const controller = new AbortController();
    const withdrawn = provider.ask({ ...DATABASE, signal: controller.signal });
    await pipes.waitFor('Choose');
    controller.abort(new UserInteractionError('Too slow.', 'ASK_TIMEOUT'));
    expect((await errorOf(withdrawn)).code).toBe('ASK_ABORTED');
    expect(pipes.text()).toContain('⊘ Database · timed out, withdrawn');
  });

  it('rejects a disposed provider’s questions with INPUT_CLOSED', async () => {
    open();
    const active = provider.ask(DATABASE);
    const queued = provider.ask(DATABASE);
    await pipes.waitFor('Choose');
    provider.dispose();
    provider.dispose();
    expect((await errorOf(active)).code).toBe('INPUT_CLOSED');
    expect((await errorOf(queued)).code).toBe('INPUT_CLOSED');
    expect((await errorOf(provider.ask(DATABASE))).code).toBe('INPUT_CLOSED');
  });

  it('writes no colour, even where the environment would allow it', async () => {
    open({ TERM: 'xterm-256color', COLORTERM: 'truecolor' });
    pipes.input.write('x\n1\n');
    await provider.ask({ ...DATABASE, question: 'Which \u001b[31mdatabase\u001b[0m?' });
    expect(pipes.text()).not.toContain('\u001b');
    expect(pipes.text()).toContain('Which ^[[31mdatabase^[[0m?');
  });

  it('colours line mode when FORCE_COLOR asks for it', async () => {
    open({ FORCE_COLOR: '1' });
    pipes.input.write('1\n');
    await provider.ask(DATABASE);
    expect(pipes.text()).toContain('\u001b[1mDatabase\u001b[22m');
  });

  it('keeps the lines of a multi-line question readable, indented under it', async () => {
    open();
    pipes.input.write('1\n');
    await provider.ask({ options: DATABASE.options ?? [], question: 'First line.\nSecond\tline.' });
    expect(pipes.text().startsWith('? First line.\n  Second  line.\n  1. Postgres')).toBe(true);
  });

  it('refuses a typed answer longer than an answer may be, and asks again', async () => {
    open();
    const tooLong = 'x'.repeat(REQUEST_LIMITS.answerLength + 1);
    const longest = tooLong.slice(1);
    pipes.input.write(`${tooLong}\n=${tooLong}\n${longest}\n`);
    const answer = await provider.ask({ ...NO_RECOMMENDATION, allowCustom: true });
    // Never cut: the longest answer that fits is taken whole.
    expect(answer).toEqual({ answer: longest });
    const message =
      'This answer has 100,001 characters; an answer holds at most 100,000. Type a shorter one.';
    expect(pipes.text().split(message)).toHaveLength(3);
  });
});
