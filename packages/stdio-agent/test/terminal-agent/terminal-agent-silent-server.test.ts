import { stripVTControlCharacters } from 'node:util';
import { createOpenAICompatibleModel } from 'dsh-agent';
import { programCommand } from 'dsh-agent/command-line';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SYSTEM_CLOCK } from '../../src/terminal-agent/turn-status.js';
import { type FakeTerminal, KEYS } from '../../src/testing.js';
import { expectTurn, startAgent, stopAgents } from '../support/agent-harness.js';

// The server's silences, the retry and the status line all run on one fake clock, moved by
// the test: no real second is waited out, and every figure on screen is exact.

afterEach(async () => {
  // The emulator's writes run on timers too: let them through while the agents stop.
  await runNow(stopAgents());
  vi.useRealTimers();
});

const SERVER = 'http://127.0.0.1:9/v1';

/** A server that takes every request and never answers; it lets go when the request is aborted. */
function silentServer() {
  const requests: AbortSignal[] = [];
  const fetch: typeof globalThis.fetch = (_input, init) => {
    const signal = init?.signal ?? new AbortController().signal;
    requests.push(signal);
    return new Promise((_resolve, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  };
  return { fetch, requests };
}

/**
 * Waits until `check` holds, the clock moving a millisecond at a time: a zero-delay timer set
 * while timers run falls due a millisecond later, as Node's do. Real I/O (loading a module)
 * goes on meanwhile.
 */
async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Not within 10 s of real time: ${what}`);
    await vi.advanceTimersByTimeAsync(1);
  }
}

/** Runs timers (the emulator's writes among them) until `promise` settles. */
async function runNow<T>(promise: Promise<T>): Promise<T> {
  let settled = false;
  const watched = promise.finally(() => {
    settled = true;
  });
  await until('the promise to settle', () => settled);
  return watched;
}

/** Everything written since the last `after`, escape sequences removed. */
function writtenAfter(terminal: FakeTerminal, after: string): string {
  const written = stripVTControlCharacters(terminal.written);
  const from = written.lastIndexOf(after);
  return from < 0 ? '' : written.slice(from);
}

const WAITING = /Waiting for the model… 1 s · Ctrl\+C cancels/;

describe('a model server that took the request and sends nothing', () => {
  it('is waited for, retried, then given up on with the real wait; Ctrl+C cancels the next wait', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const server = silentServer();
    // What `--request-timeout 2500ms --retries 1` makes of the model.
    const model = createOpenAICompatibleModel({
      baseURL: SERVER,
      model: 'm',
      timeoutMs: 2_500,
      maxRetries: 1,
      fetch: server.fetch,
    });
    const { terminal, type } = startAgent({
      model,
      clock: SYSTEM_CLOCK,
      columns: 100,
      command: programCommand('dsh-stdio-agent', {}),
    });
    await until('the prompt', () => terminal.written.includes('Ctrl+D quits.'));
    type('hello');
    await until('the first request', () => server.requests.length === 1);

    // After a second of silence, the status says that the agent waits.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(writtenAfter(terminal, '> hello')).toMatch(WAITING);
    // At 2.5 s, the attempt is given up on and the request sent again at once.
    await vi.advanceTimersByTimeAsync(1_500);
    await until('the second request', () => server.requests.length === 2);
    expect(server.requests[0]?.aborted).toBe(true);
    const retry = `↻ The model server at ${SERVER} sent nothing for 2.5 s. Retrying now, attempt 2 of 2.`;
    expect(writtenAfter(terminal, '> hello')).toContain(retry);
    // Waiting again, for the second attempt.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(writtenAfter(terminal, 'Retrying now')).toMatch(WAITING);
    // Two silences of 2.5 s: the message says how long the attempts took in all.
    await vi.advanceTimersByTimeAsync(1_500);
    await until('the error', () => terminal.written.includes('MODEL_TIMEOUT'));
    const screen = await runNow(terminal.text());
    expectTurn(screen, 'hello', [
      `↻ The model server at ${SERVER} sent nothing for 2.5 s. Retrying now, attempt 2 of 2.`,
      `✖ Error: The model server at ${SERVER} sent nothing for 2.5 s; 2 attempts, 5 s in all.`,
      '  It may be down or overloaded: try again later, or allow it more time. (MODEL_TIMEOUT)',
      '  Send your message again to retry (the conversation is kept), or give the server more time:',
      '  dsh-stdio-agent --request-timeout 60s, with your other flags.',
    ]);
    // The status line was erased, never left in the transcript.
    expect(screen).not.toContain('Waiting for the model');
    expect(server.requests).toHaveLength(2);

    // The next message waits again; Ctrl+C cancels it, and its request is let go.
    type('again');
    await until('the third request', () => server.requests.length === 3);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(writtenAfter(terminal, '> again')).toMatch(WAITING);
    terminal.press(KEYS.ctrlC);
    await until('the cancel', () => terminal.written.includes('Turn cancelled.'));
    expect(server.requests[2]?.aborted).toBe(true);
    const cancelled = await runNow(terminal.text());
    expectTurn(cancelled, 'again', ['⊘ Turn cancelled. Type your next message to go on.']);
    expect(cancelled).not.toContain('Waiting for the model');
    // No attempt was made after the cancel, however long the clock runs on.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(server.requests).toHaveLength(3);
  });
});
