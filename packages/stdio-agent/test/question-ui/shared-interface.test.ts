import { createInterface, type Interface } from 'node:readline';
import { PassThrough } from 'node:stream';
import type { AskUserQuestionRequest } from 'dsh-user-interaction';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createReadlineProvider, lineReaderFor, type ReadlineProvider } from '../../src/index.js';
import {
  createFakeTerminal,
  createPipes,
  type FakeTerminal,
  KEYS,
  TEST_ENV,
} from '../../src/testing.js';
import { providerOnSharedLines } from '../support/question-provider.js';

const DATABASE: AskUserQuestionRequest = {
  header: 'Database',
  question: 'Which database should we use?',
  options: [{ label: 'Postgres', recommended: true }, { label: 'SQLite' }],
  allowCustom: true,
};

let readline: Interface | undefined;
let provider: ReadlineProvider | undefined;
let terminal: FakeTerminal | undefined;

afterEach(() => {
  provider?.dispose();
  readline?.close();
  terminal?.dispose();
});

async function errorOf(promise: Promise<unknown>): Promise<{ code?: string }> {
  return promise.then(
    () => {
      throw new Error('Expected the question to fail.');
    },
    (error: { code?: string }) => error,
  );
}

describe('sharing an Interface in line mode', () => {
  it('hands lines to the host and to questions strictly in input order, none lost', async () => {
    const { pipes, host, ...shared } = providerOnSharedLines();
    ({ readline, provider } = shared);
    expect(provider.mode).toBe('line');
    // `printf 'hello\n1\nmy-app\n' | program`: everything arrives before any question.
    pipes.input.end('hello\n1\nmy-app\n');
    expect(await host.read()).toBe('hello');
    await new Promise((resolve) => setImmediate(resolve));
    expect((await provider.ask(DATABASE)).answer).toBe('Postgres');
    expect(await provider.ask({ question: 'Project name?' })).toEqual({ answer: 'my-app' });
    expect(await host.read()).toBeUndefined();
    expect((await errorOf(provider.ask(DATABASE))).code).toBe('INPUT_CLOSED');
  });

  it('gives the host the next line after a question took its answer', async () => {
    const input = new PassThrough();
    const pipes = createPipes();
    readline = createInterface({ input, terminal: false });
    const host = lineReaderFor(readline);
    provider = createReadlineProvider({ readline, output: pipes.output, env: TEST_ENV });
    const answer = provider.ask(DATABASE);
    const next = host.read();
    input.write('2\nnext prompt\n');
    expect((await answer).answer).toBe('SQLite');
    expect(await next).toBe('next prompt');
  });
});

describe('sharing an Interface in a terminal', () => {
  function openShared(): {
    terminal: FakeTerminal;
    readline: Interface;
    host: ReturnType<typeof lineReaderFor>;
  } {
    terminal = createFakeTerminal({ columns: 60, rows: 20 });
    readline = createInterface({
      input: terminal.input,
      output: terminal.output,
      terminal: true,
      prompt: '> ',
      escapeCodeTimeout: 10,
    });
    provider = createReadlineProvider({ readline, env: TEST_ENV });
    return { terminal, readline, host: lineReaderFor(readline) };
  }

  it('sends every key to the question while it is on screen, and none to the host', async () => {
    const { terminal, readline, host } = openShared();
    expect(provider?.mode).toBe('interactive');
    readline.prompt();
    terminal.press(...'hi', KEYS.enter);
    expect(await host.read()).toBe('hi');
    terminal.output.write('Working on it...\r\n');

    const keypressListeners = terminal.input.listeners('keypress');
    const lines = vi.fn();
    const interrupts = vi.fn();
    readline.on('line', lines);
    readline.on('SIGINT', interrupts);
    const answer = provider?.ask(DATABASE) as Promise<unknown>;
    await terminal.waitFor('Postgres');
    terminal.press(...'duck', KEYS.backspace, 'k', KEYS.enter);
    expect(await answer).toEqual({ answer: 'duck' });
    expect(lines).not.toHaveBeenCalled();
    expect(readline.line).toBe('');
    expect(await terminal.text()).toBe('> hi\nWorking on it...\n✔ Database · duck');

    // The Interface is exactly as it was: same listeners, its own emit, raw mode kept.
    expect(terminal.input.listeners('keypress')).toEqual(keypressListeners);
    expect(Object.hasOwn(terminal.input, 'emit')).toBe(false);
    expect(terminal.input.isRaw).toBe(true);
    expect(terminal.rawModes).toEqual([true]);

    const cancelled = provider?.ask(DATABASE) as Promise<unknown>;
    await terminal.waitFor('Postgres');
    terminal.press(KEYS.ctrlC);
    expect((await errorOf(cancelled)).code).toBe('ASK_CANCELLED');
    expect(interrupts).not.toHaveBeenCalled();

    readline.prompt();
    terminal.press(...'ok', KEYS.enter);
    expect(await host.read()).toBe('ok');
    expect(lines).toHaveBeenCalledWith('ok');
    expect((await terminal.text()).endsWith('✖ Database · cancelled\n> ok')).toBe(true);
  });

  it('takes keys at once when the host was already reading: nothing typed earlier can wait', async () => {
    const { terminal } = openShared();
    const answer = provider?.ask(DATABASE) as Promise<unknown>;
    await vi.waitFor(() => expect(terminal.written).toContain('Postgres'));
    terminal.press('2');
    expect(await answer).toEqual({ answer: 'SQLite', option: DATABASE.options?.[1] });
  });

  it('keeps the host prompt from drawing over the question on a resize', async () => {
    const { terminal, readline } = openShared();
    const refresh = vi.fn();
    terminal.output.on('resize', refresh);
    const answer = provider?.ask(DATABASE) as Promise<unknown>;
    await terminal.waitFor('Postgres');
    await terminal.resize(50, 20);
    const screen = await terminal.text();
    expect(screen).not.toContain('>');
    expect(screen.startsWith('? Database')).toBe(true);
    expect(refresh).not.toHaveBeenCalled();
    terminal.press(KEYS.enter);
    await answer;
    await terminal.resize(60, 20);
    expect(refresh).toHaveBeenCalledOnce();
    readline.prompt();
  });

  it('rejects with INPUT_CLOSED when the host’s Interface closes', async () => {
    const { terminal, readline } = openShared();
    const answer = provider?.ask(DATABASE) as Promise<unknown>;
    await terminal.waitFor('Postgres');
    readline.close();
    expect((await errorOf(answer)).code).toBe('INPUT_CLOSED');
    expect((await errorOf(provider?.ask(DATABASE) as Promise<unknown>)).code).toBe('INPUT_CLOSED');
    await terminal.flush();
    expect(terminal.cursorHidden()).toBe(false);
  });
});
