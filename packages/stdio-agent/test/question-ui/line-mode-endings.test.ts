import { describe, expect, it, vi } from 'vitest';
import { errorOf } from '../support/error-of.js';
import { DATABASE, open, pipes, provider } from '../support/line-mode-pipes.js';

describe('line mode', () => {
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
});
