import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { KEYS } from '../../src/testing.js';
import { assertBuilt, BIN } from '../support/bin-process.js';
import { type PtySession, startPtySession, stopPtySessions } from '../support/pty-session.js';

const repositoryRoot = fileURLToPath(new URL('../../../..', import.meta.url));

/** Each signal the question UI guards against, and the status the program must end with. */
const SIGNALS = [
  ['SIGHUP', 129],
  ['SIGQUIT', 131],
  ['SIGTERM', 143],
  // SIGINT is Ctrl+C for the agent: it cancels the turn, then quits at the prompt.
  ['SIGINT', 0],
] as const;

type Signal = (typeof SIGNALS)[number][0];

/** A model server that starts every answer and never finishes it: a turn that keeps running. */
let server: Server | undefined;
let serverUrl = '';

beforeAll(async () => {
  assertBuilt();
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const delta = { role: 'assistant', content: 'Thinking it over' };
      const chunk = { id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm' };
      response.write(
        `data: ${JSON.stringify({ ...chunk, choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`,
      );
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(() => {
  stopPtySessions();
  server?.closeAllConnections();
  server?.close();
});

/**
 * Runs the bin once per signal in one pseudo-terminal. After each run the shell prints the
 * status and `stty -a` (the modes the program left, since no interactive shell resets
 * them), then `stty sane` so that the next run starts from a cooked terminal.
 */
function runEachSignal(args: string): PtySession {
  const names = SIGNALS.map(([signal]) => signal).join(' ');
  const loop = `ulimit -c 0; for s in ${names}; do echo "run $s"; node '${BIN}' ${args}; echo "status $s=$?"; stty -a; stty sane; done`;
  return startPtySession(loop, {
    columns: 100,
    rows: 40,
    scrollback: 2_000,
    cwd: repositoryRoot,
    env: { DEEPSEEK_API_KEY: '', DSH_API_KEY: '' },
  });
}

/** The screen since `run <signal>` was printed, once it matches `wanted`. */
function waitInRun(session: PtySession, signal: Signal, wanted: RegExp): Promise<string> {
  return vi.waitFor(
    async () => {
      const screen = await session.text();
      const start = screen.lastIndexOf(`run ${signal}`);
      const run = start === -1 ? '' : screen.slice(start);
      if (!wanted.test(run)) throw new Error(`Run ${signal} does not show ${wanted}:\n${run}`);
      return run;
    },
    { timeout: 15_000, interval: 20 },
  );
}

/** The process id of the agent: Linux lists the shell's one child while the agent runs. */
function agentPid(session: PtySession): number {
  const { shellPid } = session;
  const children = readFileSync(`/proc/${shellPid}/task/${shellPid}/children`, 'utf8');
  const pid = Number(children.trim().split(/\s+/)[0]);
  if (!Number.isInteger(pid) || pid <= 0) throw new Error('The agent is not running.');
  return pid;
}

/** Where the agent stands when the signal comes, and how it gets there from the prompt. */
interface State {
  readonly name: string;
  readonly args: () => string;
  enter(session: PtySession, signal: Signal): Promise<void>;
  /** What the screen keeps of the question, when one was open. */
  readonly collapsed?: string;
}

const STATES: readonly State[] = [
  { name: 'at the prompt', args: () => '', enter: async () => {} },
  {
    name: 'while a turn runs',
    args: () => `--base-url ${serverUrl} --model m`,
    async enter(session, signal) {
      session.write('hello\r');
      await waitInRun(session, signal, /Thinking it over/);
    },
  },
  {
    name: 'with a question on screen',
    args: () => '',
    async enter(session, signal) {
      session.write('hello\r');
      await waitInRun(session, signal, /❯ 1\. TypeScript \(recommended\)/);
    },
    collapsed: 'Language',
  },
  {
    name: 'while an answer is typed',
    args: () => '',
    async enter(session, signal) {
      session.write('hello\r');
      await waitInRun(session, signal, /❯ 1\. TypeScript \(recommended\)/);
      session.write(KEYS.enter);
      await waitInRun(session, signal, /What should the project be called\?/);
      session.write('my-ap');
      await waitInRun(session, signal, /❯ my-ap/);
    },
    collapsed: 'Project name',
  },
];

/** Ctrl+C as a signal: cancels the turn, then (after the reminder) quits at the prompt. */
async function interruptUntilQuit(session: PtySession, state: State): Promise<void> {
  if (state.name !== 'at the prompt') {
    process.kill(agentPid(session), 'SIGINT');
    await waitInRun(session, 'SIGINT', /Turn cancelled\. Type your next message to go on\./);
    process.kill(agentPid(session), 'SIGINT');
    await waitInRun(session, 'SIGINT', /Press Ctrl\+C again, or Ctrl\+D, to quit\./);
  }
  process.kill(agentPid(session), 'SIGINT');
}

function expectCooked(run: string, signal: Signal): void {
  const modes = run.slice(run.indexOf('status '));
  for (const mode of ['icanon', 'echo', 'isig', 'icrnl']) {
    expect(modes, `${mode} after ${signal}`).toMatch(new RegExp(`(^|\\s)${mode}(\\s|$)`, 'm'));
    expect(modes, `${mode} after ${signal}`).not.toMatch(new RegExp(`(^|\\s)-${mode}(\\s|$)`, 'm'));
  }
}

// Each case starts the bin four times, one signal each, one after the other in its pseudo-terminal
// (a signal ends the process, so none can be shared), while the other cases start theirs: 16
// program starts in this file. A case takes 4-6 s on a quiet machine and 17-20 s at a load of 25,
// mostly the program's start (2-3 s each there) and, with the model server, loading its client.
// Each step waits on the screen, so the time limit is headroom for that work alone.
const CASE_TIMEOUT_MS = 60_000;

describe.concurrent('the terminal agent given back after a signal', () => {
  it.each(STATES)('$name', { timeout: CASE_TIMEOUT_MS }, async (state) => {
    const session = runEachSignal(state.args());
    for (const [signal, status] of SIGNALS) {
      await waitInRun(session, signal, /Ctrl\+D quits\.\n>/);
      await state.enter(session, signal);
      if (signal === 'SIGINT') await interruptUntilQuit(session, state);
      else process.kill(agentPid(session), signal);
      const run = await waitInRun(session, signal, /status SIG\w+=\d+[\s\S]*extproc/);
      expect(run).toContain(`status ${signal}=${status}\n`);
      expectCooked(run, signal);
      expect(session.cursorHidden(), `cursor after ${signal}`).toBe(false);
      if (state.collapsed !== undefined) {
        // SIGINT cancels the turn, which withdraws its question; the others end the program.
        const ending = signal === 'SIGINT' ? 'withdrawn' : 'not answered: interrupted';
        expect(run).toContain(`⊘ ${state.collapsed} · ${ending}\n`);
        expect(run).not.toContain('Esc decline');
      }
    }
  });
});
