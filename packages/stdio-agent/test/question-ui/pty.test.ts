import { execFileSync } from 'node:child_process';
import { existsSync, readlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { KEYS } from '../../src/testing.js';
import { playKeySteps } from '../support/key-steps.js';
import {
  expectCookedMode,
  type PtySession,
  startPtySession,
  stopPtySessions,
} from '../support/pty-session.js';

const packageRoot = fileURLToPath(new URL('../..', import.meta.url));
const repositoryRoot = fileURLToPath(new URL('../../../..', import.meta.url));
const program = fileURLToPath(new URL('../fixtures/terminal-program.ts', import.meta.url));

afterEach(stopPtySessions);

/** Runs the fixture program's scenario in a real pseudo-terminal, 80x30. */
function run(scenario: string): PtySession {
  // No core file from a SIGQUIT, whatever the machine's default.
  return startPtySession(`ulimit -c 0; node --import tsx '${program}' ${scenario}`, {
    columns: 80,
    rows: 30,
    cwd: repositoryRoot,
  });
}

/** The process id the program printed (the shell around it has another). */
function programPid(screen: string): number {
  const pid = /mode: interactive, pid: (\d+)/.exec(screen)?.[1];
  if (pid === undefined)
    throw new Error(`The program did not start in interactive mode:\n${screen}`);
  return Number(pid);
}

beforeAll(() => {
  if (!existsSync(`${packageRoot}dist/index.js`)) {
    throw new Error(
      'The end-to-end tests run the built package: run `pnpm --filter dsh-stdio-agent build` (or `pnpm test` at the root) first.',
    );
  }
});

/**
 * The modes the program read with `stty -a` while it still ran, after its questions settled:
 * proof of what the provider gave back, before Node's own reset at exit.
 */
function expectCookedWhileRunning(screen: string): void {
  const line = /^running: (.*)$/m.exec(screen.replace(/\n(?!\w+[:=])/g, ''))?.[1];
  expect(line, 'the program printed its terminal modes').toBeDefined();
  expect(line).toMatch(/(^|\s)icanon(\s|$)/);
  expect(line).toMatch(/(^|\s)echo(\s|$)/);
  expect(line).not.toMatch(/-icanon|(^|\s)-echo(\s|$)/);
}

describe('in a real terminal', () => {
  it('narrows a long list as letters are typed, and Enter picks the focused match', async () => {
    const session = run('filter');
    await session.waitFor('❯   1. Meeting room 1');
    session.write('CAFE');
    const found = await session.waitFor('2 of 502 match "CAFE"');
    expect(found).toContain('❯ 501. Café Müller');
    expect(found).toContain('  502. ＣＡＦＥ ＴＯＫＹＯ');
    expect(found).not.toContain('Meeting room');
    session.write(KEYS.down);
    await session.waitFor('❯ 502. ＣＡＦＥ ＴＯＫＹＯ');
    session.write(KEYS.backspace.repeat(4));
    // Backspace widened back to the whole list; the focus stayed on its option.
    const whole = await session.waitFor(
      /Café Müller\n❯ 502\. ＣＡＦＥ ＴＯＫＹＯ\n\s+↑ \d+ more\n/,
    );
    expect(whole).not.toContain('match');
    session.write('muller');
    await session.waitFor('1 of 502 match "muller"');
    session.write(KEYS.enter);
    const screen = await session.waitFor(/\ndone$/);
    expect(screen).toContain('answer: Café Müller');
    expect(screen).toContain('✔ Place · Café Müller');
    expect(screen).not.toContain('Meeting room');
    expect(screen).toContain('exit=0');
    expect(session.cursorHidden()).toBe(false);
    expectCookedMode(screen);
    expect((await session.finish()).exitCode).toBe(0);
  });

  it('answers with the arrow keys, is interrupted by Ctrl+C, and restores the terminal', async () => {
    const session = run('answer-then-interrupt');
    await session.waitFor('❯ 1. Postgres');
    expect(await session.text()).toContain('mode: interactive');
    const screen = await playKeySteps(session, [
      [KEYS.down, '❯ 2. SQLite'],
      [KEYS.enter, 'Project name?'],
      [KEYS.ctrlC, 'done'],
    ]);
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

  it('gives the terminal back on kill -TSTP and takes it again on SIGCONT, redrawn', async () => {
    const session = run('answer-then-interrupt');
    const pid = programPid(await session.waitFor('❯ 1. Postgres'));
    // The terminal's modes, read from outside while the program runs.
    const device = readlinkSync(`/proc/${pid}/fd/0`);
    const modes = (): string => execFileSync('stty', ['-a', '-F', device]).toString('utf8');
    expect(modes()).toMatch(/-icanon/);
    const before = session.raw().length;
    process.kill(pid, 'SIGTSTP');
    await vi.waitFor(() => expect(modes()).toMatch(/(^|\s)icanon(\s|$)/m), { timeout: 15_000 });
    await vi.waitFor(() => expect(session.cursorHidden()).toBe(false), { timeout: 15_000 });
    expect(session.raw().slice(before)).toContain('\u001b[?2004l\u001b[?25h');
    // The shell would stop the program here; this one has no job control, so it runs on.
    process.kill(pid, 'SIGCONT');
    await vi.waitFor(() => expect(modes()).toMatch(/-icanon/), { timeout: 15_000 });
    await vi.waitFor(() => expect(session.cursorHidden()).toBe(true), { timeout: 15_000 });
    // Arrows are keys again, not ^[[B echoed by a cooked terminal.
    const screen = await playKeySteps(session, [
      [KEYS.down, '❯ 2. SQLite'],
      [KEYS.enter, 'Project name?'],
      [KEYS.ctrlC, 'done'],
    ]);
    expect(screen).toContain('first: sqlite');
    expect(screen).not.toContain('^[[B');
    expect(screen).toContain('exit=0');
    expect((await session.finish()).exitCode).toBe(0);
  });

  it('answers several questions with Tab, Space and the review, and restores the terminal', async () => {
    const session = run('batch');
    await session.waitFor('Question 1 of 2');
    const screen = await playKeySteps(session, [
      [KEYS.tab, '❯ 1. [ ] Auth'],
      [' ', '❯ 1. [x] Auth'],
      ['3', '[x] Docs'],
      [KEYS.shiftTab, 'Question 1 of 2'],
      [KEYS.down, '❯ 2. ( ) SQLite'],
      [KEYS.enter, 'Review your answers'],
      [KEYS.enter, 'done'],
    ]);
    expect(screen).toContain(
      '✔ Database · SQLite\n✔ Features · Auth, Docs\nanswers: database=sqlite features=Auth+Docs\nraw: false\nrunning: ',
    );
    expect(screen).not.toContain('Review your answers');
    expect(screen).toContain('exit=0');
    expectCookedWhileRunning(screen);
    expect(session.cursorHidden()).toBe(false);
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

  it.each([
    ['SIGHUP', 129],
    ['SIGQUIT', 131],
  ] as const)(
    'turns raw mode off on %s even when a shared Interface switched it on, then ends as it would',
    async (signal, status) => {
      const session = run('shared-signal');
      await session.waitFor('❯ 1. Postgres');
      process.kill(programPid(await session.text()), signal);
      const after = await session.waitFor('done');
      expect(after).toContain('⊘ Database · not answered: interrupted\n');
      expect(after).toContain(`exit=${status}`);
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
