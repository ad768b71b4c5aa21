import pty from '@lydell/node-pty';
import xterm from '@xterm/headless';
import { expect, vi } from 'vitest';
import { TEST_STATE_HOME } from './bin-process.js';

const { Terminal } = xterm;

/** A command running in a real pseudo-terminal, seen through a terminal emulator. */
export interface PtySession {
  write(data: string): void;
  /** The screen and its scrollback, trailing spaces and blank rows dropped. */
  text(): Promise<string>;
  waitFor(text: string | RegExp): Promise<string>;
  /** Lets the shell end (it waits for a line after `done`) and resolves with its exit. */
  finish(): Promise<{ exitCode: number; signal?: number }>;
  cursorHidden(): boolean;
  /** Every byte the command wrote, as text, escape sequences included. */
  raw(): string;
  /** The process id of the shell around the command. */
  readonly shellPid: number;
}

/** Options of `startPtySession`. */
export interface PtySessionOptions {
  readonly columns: number;
  readonly rows: number;
  readonly cwd: string;
  readonly scrollback?: number;
  /** Variables added to the environment; colour settings of the test run are removed. */
  readonly env?: Record<string, string>;
}

const running = new Set<{ kill(): void }>();

/** Ends every session a test left running; call it after each test. */
export function stopPtySessions(): void {
  for (const child of running) child.kill();
  running.clear();
}

/**
 * Runs `command` under a shell in a real pseudo-terminal; afterwards the shell prints the
 * command's status (`exit=N`), `stty -a` of the same terminal and `done`, then waits for a line:
 * output a pty delivers as its process exits can be lost, so the shell stays until the test has
 * read everything.
 */
export function startPtySession(command: string, options: PtySessionOptions): PtySession {
  const { columns, rows } = options;
  const terminal = new Terminal({
    cols: columns,
    rows,
    allowProposedApi: true,
    scrollback: options.scrollback ?? 200,
  });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TERM: 'xterm-256color',
    // Conversations are saved in the test run's folder, never in the home folder.
    XDG_STATE_HOME: TEST_STATE_HOME,
    ...options.env,
  };
  for (const name of ['NO_COLOR', 'FORCE_COLOR', 'NODE_DISABLE_COLORS']) {
    if (options.env?.[name] === undefined) delete env[name];
  }
  const script = `${command}; echo "exit=$?"; stty -a; echo done; read _`;
  const child = pty.spawn('/bin/sh', ['-c', script], {
    name: 'xterm-256color',
    cols: columns,
    rows,
    cwd: options.cwd,
    env: env as Record<string, string>,
  });
  running.add(child);
  let raw = '';
  child.onData((data) => {
    raw += data;
    terminal.write(data);
  });
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
    finish() {
      child.write('\r');
      return exited;
    },
    cursorHidden() {
      const core = (terminal as unknown as { _core: { coreService: { isCursorHidden: boolean } } })
        ._core;
      return core.coreService.isCursorHidden;
    },
    raw: () => raw,
    shellPid: child.pid,
  };
}

/**
 * The terminal modes the shell's `stty -a` printed after the command: icanon and echo are on
 * again. Node resets the modes itself on a normal exit (not when a signal ends the process), so
 * after a normal exit this is the state a person is left with rather than proof of what the
 * program did.
 */
export function expectCookedMode(screen: string): void {
  const modes = screen.slice(screen.lastIndexOf('exit='));
  expect(modes).toMatch(/(^|\s)icanon(\s|$)/m);
  expect(modes).toMatch(/(^|\s)echo(\s|$)/m);
  expect(modes).not.toMatch(/-icanon|(^|\s)-echo(\s|$)/m);
}
