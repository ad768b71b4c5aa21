import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pty from '@lydell/node-pty';
import xterm from '@xterm/headless';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { assertBuilt, BIN } from './bin-process.js';
import { KEYS } from './fake-terminal.js';

const { Terminal } = xterm;
const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));
const COLUMNS = 100;
const ROWS = 40;

interface Session {
  write(data: string): void;
  text(): Promise<string>;
  waitFor(text: string | RegExp): Promise<string>;
  /** The process id of the agent (the shell around it has another). */
  agentPid(): number;
  /** Lets the shell end (it waits for a line after `done`) and resolves with its exit. */
  finish(): Promise<{ exitCode: number }>;
  cursorHidden(): boolean;
}

const running = new Set<{ kill(): void }>();
afterEach(() => {
  for (const child of running) child.kill();
  running.clear();
});

beforeAll(assertBuilt);

/**
 * Runs the built bin in a real pseudo-terminal under a shell, which prints its exit status
 * and `stty -a` of the same terminal afterwards; the output goes through a terminal emulator.
 */
function runAgent(): Session {
  const terminal = new Terminal({
    cols: COLUMNS,
    rows: ROWS,
    allowProposedApi: true,
    scrollback: 500,
  });
  // The shell waits for a line after `done`: a pty can drop what its process writes as it exits.
  const script = `node '${BIN}'; echo "exit=$?"; stty -a; echo done; read _`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TERM: 'xterm-256color',
    DEEPSEEK_API_KEY: '',
    DSH_API_KEY: '',
  };
  for (const name of ['NO_COLOR', 'FORCE_COLOR', 'NODE_DISABLE_COLORS']) delete env[name];
  const child = pty.spawn('/bin/sh', ['-c', script], {
    name: 'xterm-256color',
    cols: COLUMNS,
    rows: ROWS,
    cwd: repositoryRoot,
    env: env as Record<string, string>,
  });
  running.add(child);
  child.onData((data) => terminal.write(data));
  const exited = new Promise<{ exitCode: number }>((resolve) =>
    child.onExit((exit) => {
      running.delete(child);
      resolve(exit);
    }),
  );
  // Trailing spaces are dropped from every row, and blank rows from the end.
  const text = async (): Promise<string> => {
    await new Promise<void>((resolve) => terminal.write('', resolve));
    const buffer = terminal.buffer.active;
    const lines: string[] = [];
    for (let row = 0; row < buffer.length; row++) {
      lines.push((buffer.getLine(row)?.translateToString(true) ?? '').trimEnd());
    }
    return lines.join('\n').trimEnd();
  };
  return {
    write: (data) => child.write(data),
    text,
    waitFor: (wanted) =>
      vi.waitFor(
        async () => {
          const screen = await text();
          const found = typeof wanted === 'string' ? screen.includes(wanted) : wanted.test(screen);
          if (!found) throw new Error(`The terminal does not show ${String(wanted)}:\n${screen}`);
          return screen;
        },
        { timeout: 15_000, interval: 20 },
      ),
    agentPid() {
      // Linux lists a process's children here; the shell has one while the agent runs.
      const children = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8');
      const pid = Number(children.trim().split(/\s+/)[0]);
      if (!Number.isInteger(pid) || pid <= 0) throw new Error('The agent is not running.');
      return pid;
    },
    finish() {
      child.write('\r');
      return exited;
    },
    cursorHidden() {
      const core = (terminal as unknown as { _core: { coreService: { isCursorHidden: boolean } } })
        ._core;
      return core.coreService.isCursorHidden;
    },
  };
}

/** The terminal modes `stty -a` printed after the agent: icanon and echo are on again. */
function expectCookedMode(screen: string): void {
  const modes = screen.slice(screen.lastIndexOf('exit='));
  expect(modes).toMatch(/(^|\s)icanon(\s|$)/m);
  expect(modes).toMatch(/(^|\s)echo(\s|$)/m);
  expect(modes).not.toMatch(/-icanon|(^|\s)-echo(\s|$)/m);
}

describe('the terminal agent in a real terminal', () => {
  it('answers the demo with arrows, typing and digits, is interrupted by Ctrl+C, quits on Ctrl+D', async () => {
    const session = runAgent();
    await session.waitFor(/Ctrl\+D quits\.\n>$/);
    expect(await session.text()).toContain('Model: built-in demo (offline, scripted)');
    session.write('hello\r');
    await session.waitFor('❯ 1. TypeScript (recommended)');
    session.write(KEYS.down);
    await session.waitFor('❯ 2. Go');
    session.write(KEYS.enter);
    await session.waitFor('What should the project be called?');
    session.write('my-app\r');
    await session.waitFor('Which database should my-app use?');
    session.write('2');
    await session.waitFor('Where will my-app run?');
    session.write(KEYS.ctrlC);
    await session.waitFor('⊘ Turn cancelled.');
    await session.waitFor(/Turn cancelled\. Type your next message to go on\.\n\n>$/);

    // The conversation goes on: the script's closing step quotes the answers given.
    session.write('sum it up\r');
    await session.waitFor('That is the whole demo.');
    await session.waitFor(/--base-url\.\n\n>$/);
    session.write('\u0004');
    const screen = await session.waitFor('done');

    expect(screen).toContain(
      [
        '✔ Language · Go',
        'Noted: Go. The next question has no options: type the answer.',
        '✔ Project name · my-app',
        'Next, a choice that also takes an answer of your own.',
        '✔ Database · SQLite',
        'Last question: this one takes one of its options only.',
        '✖ Hosting · cancelled',
        '⊘ Turn cancelled. Type your next message to go on.',
        '',
        '> sum it up',
        'Here is the plan:',
        '',
        '- Project: my-app',
        '- Language: Go',
        '- Database: SQLite',
        '- Hosting: (not chosen)',
      ].join('\n'),
    );
    expect(screen).toMatch(/--base-url\.\n\n>\nexit=0\n/);
    // No menu was left behind.
    expect(screen).not.toContain('Esc decline');
    expect(session.cursorHidden()).toBe(false);
    expectCookedMode(screen);
    expect((await session.finish()).exitCode).toBe(0);
  });

  it('quits on Ctrl+C at an empty prompt, with status 0 and the terminal restored', async () => {
    const session = runAgent();
    await session.waitFor(/Ctrl\+D quits\.\n>$/);
    session.write('half a line');
    await session.waitFor('> half a line');
    session.write(KEYS.ctrlC);
    await session.waitFor(/Ctrl\+D quits\.\n>$/);
    session.write(KEYS.ctrlC);
    const screen = await session.waitFor('done');
    expect(screen).toMatch(/Ctrl\+D quits\.\n>\nexit=0\n/);
    expectCookedMode(screen);
    expect(session.cursorHidden()).toBe(false);
    expect((await session.finish()).exitCode).toBe(0);
  });

  it('restores the terminal when it is terminated with a question on screen', async () => {
    const session = runAgent();
    await session.waitFor(/Ctrl\+D quits\.\n>$/);
    session.write('hello\r');
    await session.waitFor('❯ 1. TypeScript (recommended)');
    process.kill(session.agentPid(), 'SIGTERM');
    const screen = await session.waitFor('done');
    expect(screen).toContain('⊘ Language · not answered: interrupted\n');
    expect(screen).toContain('exit=143');
    expect(screen).not.toContain('❯ 1. TypeScript');
    expect(session.cursorHidden()).toBe(false);
    expectCookedMode(screen);
    expect((await session.finish()).exitCode).toBe(0);
  });

  it('restores the terminal when it is terminated at the prompt', async () => {
    const session = runAgent();
    await session.waitFor(/Ctrl\+D quits\.\n>$/);
    session.write('typed, not sent');
    await session.waitFor('> typed, not sent');
    process.kill(session.agentPid(), 'SIGTERM');
    const screen = await session.waitFor('done');
    expect(screen).toContain('exit=143');
    expect(session.cursorHidden()).toBe(false);
    expectCookedMode(screen);
    expect((await session.finish()).exitCode).toBe(0);
  });
});
