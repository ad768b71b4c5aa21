import type { Model } from 'dsh-agent';
import { expect, vi } from 'vitest';
import type { StatusClock } from '../../src/terminal-agent/turn-status.js';
import { runTerminalAgent, type TerminalAgentOptions } from '../../src/terminal-agent.js';
import {
  createFakeTerminal,
  createPipes,
  type FakeTerminal,
  type Pipes,
  TEST_ENV,
} from '../../src/testing.js';
import { typedLine } from './key-steps.js';

/** A clock that moves only when the test says so. */
export interface ManualClock extends StatusClock {
  /** Moves time forward, running every timer that falls due, in order. */
  advance(ms: number): void;
  /** Timers waiting. */
  readonly pending: number;
}

/** A fresh manual clock at time 0. */
export function manualClock(): ManualClock {
  let now = 0;
  let timers: { at: number; tick: () => void }[] = [];
  return {
    now: () => now,
    after(ms, tick) {
      const timer = { at: now + ms, tick };
      timers.push(timer);
      return () => {
        timers = timers.filter((other) => other !== timer);
      };
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = timers.filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at)[0];
        if (due === undefined) break;
        timers = timers.filter((timer) => timer !== due);
        now = due.at;
        due.tick();
      }
      now = end;
    },
    get pending() {
      return timers.length;
    },
  };
}

/** The terminal agent running in-process on a fake terminal. */
export interface AgentSession {
  readonly terminal: FakeTerminal;
  /** The exit status `runTerminalAgent` resolved with. */
  readonly exit: Promise<number>;
  /** Types a line and presses Enter. */
  type(text: string): void;
}

const sessions: AgentSession[] = [];

/**
 * Starts the terminal agent on a fake terminal (prompt, questions and status line all on
 * its screen), with a short Esc delay so that tests can press Esc, and a clock that stands
 * still unless the test gives one it moves: the status line shows only when a test asks.
 */
export function startAgent(
  options: Partial<TerminalAgentOptions> & {
    readonly model: Model;
    readonly columns?: number;
    readonly rows?: number;
  },
): AgentSession {
  const { columns = 100, rows = 50, ...rest } = options;
  const terminal = createFakeTerminal({ columns, rows });
  const exit = runTerminalAgent({
    input: terminal.input,
    output: terminal.output,
    errorOutput: terminal.output,
    env: TEST_ENV,
    escapeCodeTimeout: 10,
    clock: manualClock(),
    ...rest,
  });
  const session: AgentSession = {
    terminal,
    exit,
    type(text) {
      terminal.press(...typedLine(text));
    },
  };
  sessions.push(session);
  return session;
}

/** Starts the terminal agent on plain pipes: no terminal on either side, errors on the output. */
export function startPipedAgent(
  options: Partial<TerminalAgentOptions> & { readonly model: Model },
): { pipes: Pipes; exit: Promise<number> } {
  const pipes = createPipes();
  const exit = runTerminalAgent({
    input: pipes.input,
    output: pipes.output,
    errorOutput: pipes.output,
    env: TEST_ENV,
    ...options,
  });
  return { pipes, exit };
}

/** Ends every session a test left running (the input ends, as a closed terminal would). */
export async function stopAgents(): Promise<void> {
  for (const session of sessions.splice(0)) {
    session.terminal.input.end();
    await session.exit.catch(() => {});
    session.terminal.dispose();
  }
}

/** Waits until the prompt is back: the last row is `> ` and nothing else. */
export async function waitForPrompt(terminal: FakeTerminal, interval = 20): Promise<string> {
  return vi.waitFor(
    async () => {
      const screen = await terminal.text();
      if (!screen.endsWith('\n> ') && screen !== '> ') {
        throw new Error(`The prompt is not back:\n${screen}`);
      }
      return screen;
    },
    { interval },
  );
}

/** The last non-blank row of the screen. */
export async function lastLine(terminal: FakeTerminal): Promise<string> {
  const rows = (await terminal.text()).split('\n');
  return rows[rows.length - 1] ?? '';
}

/** The screen from the last prompt row that starts with `prompt` on. */
export function fromPrompt(screen: string, prompt: string): string {
  return screen.slice(screen.lastIndexOf(`> ${prompt}`));
}

/** Asserts that the turn `prompt` started shows `lines`, then a blank row and the prompt back. */
export function expectTurn(screen: string, prompt: string, lines: readonly string[]): void {
  expect(fromPrompt(screen, prompt)).toBe([`> ${prompt}`, ...lines, '', '> '].join('\n'));
}
