import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pty from '@lydell/node-pty';
import xterm from '@xterm/headless';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { KEYS } from './fake-terminal.js';

const { Terminal } = xterm;
const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));
const program = fileURLToPath(new URL('./fixtures/terminal-program.ts', import.meta.url));
const COLUMNS = 80;
const ROWS = 30;

interface Session {
  write(data: string): void;
  text(): Promise<string>;
  waitFor(text: string | RegExp): Promise<string>;
  /** Lets the shell end (it waits for a line after `done`) and resolves with its exit. */
  finish(): Promise<{ exitCode: number; signal?: number }>;
  cursorHidden(): boolean;
}

const running = new Set<{ kill(): void }>();
afterEach(() => {
  for (const child of running) child.kill();
  running.clear();
});

/**
 * Runs the fixture program in a real pseudo-terminal under a shell, which runs `stty -a` on
 * the same terminal once the program has ended; the output goes through a terminal emulator.
 */
function run(scenario: string): Session {
  const terminal = new Terminal({
    cols: COLUMNS,
    rows: ROWS,
    allowProposedApi: true,
    scrollback: 200,
  });
  // The shell waits for a line after `done`: output a pty delivers as its process exits can be
  // lost, so the shell stays until the test has read everything.
  const script = `node --import tsx '${program}' ${scenario}; echo "exit=$?"; stty -a; echo done; read _`;
  const child = pty.spawn('/bin/sh', ['-c', script], {
    name: 'xterm-256color',
    cols: COLUMNS,
    rows: ROWS,
    cwd: repositoryRoot,
    env: { ...process.env, TERM: 'xterm-256color', NO_COLOR: '', FORCE_COLOR: '' },
  });
  running.add(child);
  child.onData((data) => terminal.write(data));
  const exited = new Promise<{ exitCode: number; signal?: number }>((resolve) =>
    child.onExit((exit) => {
      running.delete(child);
      resolve(exit);
    }),
  );
  const text = async (): Promise<string> => {
    await new Promise<void>((resolve) => terminal.write('', resolve));
    const buffer = terminal.buffer.active;
    const lines: string[] = [];
    for (let row = 0; row < buffer.length; row++) {
      lines.push(buffer.getLine(row)?.translateToString(true) ?? '');
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

/** The process id the program printed (the shell around it has another). */
function programPid(screen: string): number {
  const pid = /mode: interactive, pid: (\d+)/.exec(screen)?.[1];
  if (pid === undefined)
    throw new Error(`The program did not start in interactive mode:\n${screen}`);
  return Number(pid);
}

/**
 * The terminal modes `stty -a` printed after the program: icanon and echo are on again. Node
 * itself resets the terminal when a process exits, so this is the state a person is left with,
 * not proof of what the provider did; `expectCookedWhileRunning` is that proof.
 */
function expectCookedMode(screen: string): void {
  const modes = screen.slice(screen.lastIndexOf('exit='));
  expect(modes).toMatch(/(^|\s)icanon(\s|$)/m);
  expect(modes).toMatch(/(^|\s)echo(\s|$)/m);
  expect(modes).not.toMatch(/-icanon|(^|\s)-echo(\s|$)/m);
}

beforeAll(() => {
  if (!existsSync(`${packageRoot}dist/index.js`)) {
    throw new Error(
      'The end-to-end tests run the built package: run `pnpm --filter dsh-stdio-agent build` (or `pnpm test` at the root) first.',
    );
  }
});

/** The modes the program read with `stty -a` while it still ran, after its questions settled. */
function expectCookedWhileRunning(screen: string): void {
  const line = /^running: (.*)$/m.exec(screen.replace(/\n(?!\w+[:=])/g, ''))?.[1];
  expect(line, 'the program printed its terminal modes').toBeDefined();
  expect(line).toMatch(/(^|\s)icanon(\s|$)/);
  expect(line).toMatch(/(^|\s)echo(\s|$)/);
  expect(line).not.toMatch(/-icanon|(^|\s)-echo(\s|$)/);
}

describe('in a real terminal', () => {
  it('answers with the arrow keys, is interrupted by Ctrl+C, and restores the terminal', async () => {
    const session = run('answer-then-interrupt');
    await session.waitFor('❯ 1. Postgres');
    expect(await session.text()).toContain('mode: interactive');
    session.write(KEYS.down);
    await session.waitFor('❯ 2. SQLite');
    session.write(KEYS.enter);
    await session.waitFor('Project name?');
    session.write(KEYS.ctrlC);
    const screen = await session.waitFor('done');
    expect(screen).toContain(
      '✔ Database · SQLite\nfirst: sqlite\n✖ Name · cancelled\nsecond: ASK_CANCELLED\nraw: false\nrunning: ',
    );
    expect(screen).toContain('exit=0');
    expectCookedWhileRunning(screen);
    expect(screen).not.toContain('Which database should we use?');
    expect(session.cursorHidden()).toBe(false);
    expectCookedMode(screen);
    expect((await session.finish()).exitCode).toBe(0);
  });

  it('restores the terminal on SIGTERM, then ends as SIGTERM would', async () => {
    const session = run('terminate');
    await session.waitFor('❯ 1. Postgres');
    process.kill(programPid(await session.text()), 'SIGTERM');
    const after = await session.waitFor('done');
    expect(after).toContain('⊘ Database · not answered: interrupted\n');
    // 128 + 15: the program ended by the signal itself, after the terminal was restored.
    expect(after).toContain('exit=143');
    expect(after).not.toContain('Which database should we use?');
    expect(session.cursorHidden()).toBe(false);
    expectCookedMode(after);
  });

  it.each([
    ['SIGINT', 130],
    ['SIGHUP', 129],
  ] as const)(
    'restores the terminal on %s when nothing else handles it, then ends as it would',
    async (signal, status) => {
      const session = run('signal');
      await session.waitFor('❯ 1. Postgres');
      process.kill(programPid(await session.text()), signal);
      const after = await session.waitFor('done');
      expect(after).toContain('⊘ Database · not answered: interrupted\n');
      expect(after).toContain(`exit=${status}`);
      expect(after).not.toContain('Which database should we use?');
      expect(session.cursorHidden()).toBe(false);
      expectCookedMode(after);
    },
  );

  it('restores the terminal when the host crashes with the question on screen', async () => {
    const session = run('crash');
    await session.waitFor('❯ 1. Postgres');
    process.kill(programPid(await session.text()), 'SIGUSR2');
    const after = await session.waitFor('done');
    expect(after).toContain('⊘ Database · not answered: interrupted');
    expect(after).toContain('The host crashed.');
    expect(after).toContain('exit=1');
    expect(after).not.toContain('Which database should we use?');
    expect(session.cursorHidden()).toBe(false);
    expectCookedMode(after);
  });
});
