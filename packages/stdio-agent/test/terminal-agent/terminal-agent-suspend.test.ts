import { stripVTControlCharacters } from 'node:util';
import { createScriptedModel, DEMO_SCRIPT } from 'dsh-agent';
import { stepModel, textStep, untilAborted } from 'dsh-agent/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FakeTerminal, KEYS } from '../../src/testing.js';
import { startAgent, stopAgents, waitForPrompt } from '../support/agent-harness.js';

afterEach(async () => {
  vi.restoreAllMocks();
  await stopAgents();
});

/** Stands in for the kernel: see test/question-ui/suspend.test.ts. */
function fakeKill(): { stops: number } {
  const seen = { stops: 0 };
  vi.spyOn(process, 'kill').mockImplementation((_pid, signal) => {
    expect(signal).toBe('SIGTSTP');
    if (process.listenerCount('SIGTSTP') > 0) process.emit('SIGTSTP', 'SIGTSTP');
    else seen.stops++;
    return true;
  });
  return seen;
}

async function expectSuspended(terminal: FakeTerminal, seen: { stops: number }, stops: number) {
  expect(seen.stops).toBe(stops);
  expect(terminal.input.isRaw).toBe(false);
  await terminal.flush();
  expect(terminal.cursorHidden()).toBe(false);
  expect(terminal.written.endsWith('\u001b[?2004l\u001b[?25h')).toBe(true);
}

describe('the terminal agent suspended and resumed', () => {
  it('at the prompt: cooked while stopped, raw again with the line redrawn after fg', async () => {
    const seen = fakeKill();
    const { terminal, exit, type } = startAgent({ model: stepModel(textStep('Fine.')) });
    await waitForPrompt(terminal);
    terminal.press('h', 'i');
    await terminal.waitFor('> hi');
    process.emit('SIGTSTP', 'SIGTSTP');
    await expectSuspended(terminal, seen, 1);
    const before = terminal.written.length;
    process.emit('SIGCONT', 'SIGCONT');
    expect(terminal.input.isRaw).toBe(true);
    expect(stripVTControlCharacters(terminal.written.slice(before))).toBe('> hi');
    // Ctrl+Z as a key at the prompt goes the same way.
    terminal.press('\u001a');
    await vi.waitFor(() => expect(seen.stops).toBe(2));
    expect(terminal.input.isRaw).toBe(false);
    process.emit('SIGCONT', 'SIGCONT');
    expect(terminal.input.isRaw).toBe(true);
    type('');
    await terminal.waitFor('Fine.');
    await waitForPrompt(terminal);
    terminal.input.end();
    expect(await exit).toBe(0);
    expect(process.listenerCount('SIGTSTP')).toBe(0);
  });

  it('during a turn and with a question on screen: the question is drawn again and answers', async () => {
    const seen = fakeKill();
    const { terminal, type } = startAgent({
      model: createScriptedModel(DEMO_SCRIPT, { name: 'demo' }),
      columns: 120,
    });
    await waitForPrompt(terminal);
    type('hello');
    await terminal.waitFor('❯ 1. TypeScript');
    process.emit('SIGTSTP', 'SIGTSTP');
    await expectSuspended(terminal, seen, 1);
    expect(await terminal.text()).not.toContain('❯ 1. TypeScript');
    process.emit('SIGCONT', 'SIGCONT');
    expect(terminal.input.isRaw).toBe(true);
    await terminal.waitFor('❯ 1. TypeScript');
    expect(terminal.cursorHidden()).toBe(true);
    terminal.press(KEYS.enter);
    await terminal.waitFor('Noted: TypeScript.');
  });

  it('while the model streams: Ctrl+Z suspends, and Ctrl+C still cancels after fg', async () => {
    const seen = fakeKill();
    const { terminal, type } = startAgent({
      model: stepModel(async function* (request: { signal: AbortSignal }) {
        yield { type: 'text-delta' as const, text: 'Working' };
        await untilAborted(request.signal);
      }),
    });
    await waitForPrompt(terminal);
    type('work');
    await terminal.waitFor('Working');
    terminal.press('\u001a');
    await vi.waitFor(() => expect(seen.stops).toBe(1));
    await expectSuspended(terminal, seen, 1);
    process.emit('SIGCONT', 'SIGCONT');
    expect(terminal.input.isRaw).toBe(true);
    terminal.press(KEYS.ctrlC);
    await terminal.waitFor('Turn cancelled');
    await waitForPrompt(terminal);
  });
});
