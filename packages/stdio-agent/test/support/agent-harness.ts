import type { Model, ModelEvent, ModelRequest } from 'dsh-agent';
import { vi } from 'vitest';
import { runTerminalAgent, type TerminalAgentOptions } from '../../src/index.js';
import type { StatusClock } from '../../src/terminal-agent/turn-status.js';
import { createFakeTerminal, type FakeTerminal, TEST_ENV } from './fake-terminal.js';

/** A promise settled from outside. */
export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

/** A fresh deferred promise. */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  return { promise, resolve, reject };
}

/** One model request, answered by a test. */
export type ModelStep = (request: ModelRequest) => AsyncIterable<ModelEvent>;

/** A model that answers its n-th request with the n-th step, and records every request. */
export interface StepModel extends Model {
  readonly requests: ModelRequest[];
}

/** A model made of steps, one per request; past the last one, it fails the test loudly. */
export function stepModel(...steps: ModelStep[]): StepModel {
  const requests: ModelRequest[] = [];
  return {
    id: 'test-model',
    requests,
    stream(request) {
      requests.push(request);
      const step = steps[requests.length - 1];
      if (step === undefined) throw new Error(`The test model has no step ${requests.length}.`);
      return step(request);
    },
  };
}

/** A step that streams these pieces of text and ends the turn. */
export function textStep(...pieces: string[]): ModelStep {
  return async function* () {
    for (const text of pieces) yield { type: 'text-delta', text };
    yield { type: 'finish', reason: 'stop' };
  };
}

/** Resolves when `signal` aborts: a model that waits on the network until it is cancelled. */
export function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

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
      terminal.press(...text, '\r');
    },
  };
  sessions.push(session);
  return session;
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
