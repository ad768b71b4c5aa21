import type { StoredSession } from 'dsh-agent';
import { stepModel } from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { InterruptSource } from '../../src/terminal-agent.js';
import type { FakeTerminal } from '../../src/testing.js';
import { startAgent, stopAgents, waitForPrompt } from '../support/agent-harness.js';

afterEach(stopAgents);

/** A saved conversation that only counts how often it is closed. */
function countingSession(): StoredSession & { readonly closes: () => number } {
  let closes = 0;
  return {
    id: 'cleanup-session',
    cwd: '/nowhere',
    entries: [],
    warnings: [],
    recorder: { add: () => {}, flush: async () => {} },
    close: async () => {
      closes++;
    },
    closes: () => closes,
  };
}

/** What the terminal agent left on the fake terminal's input once it ended. */
function inputListeners(terminal: FakeTerminal): number {
  const { input } = terminal;
  return ['data', 'keypress', 'end'].reduce((sum, name) => sum + input.listenerCount(name), 0);
}

describe('the terminal agent ending', () => {
  it('undoes every setup even when one undo fails, and reports that failure', async () => {
    // What an agent that ended well leaves on its input (the keypress decoder stays).
    const ended = startAgent({ model: stepModel() });
    await waitForPrompt(ended.terminal);
    ended.terminal.press('\u0004');
    expect(await ended.exit).toBe(0);
    const left = inputListeners(ended.terminal);
    const gone = new Error('the SIGINT source is gone');
    const listeners: (() => void)[] = [];
    const interrupts: InterruptSource = {
      on: (_event, listener) => listeners.push(listener),
      removeListener: () => {
        throw gone;
      },
    };
    const session = countingSession();
    const { terminal, exit } = startAgent({ model: stepModel(), interrupts, session });
    await waitForPrompt(terminal);
    expect(listeners).toHaveLength(1);
    // Ctrl+D at the empty prompt quits.
    terminal.press('\u0004');
    await expect(exit).rejects.toBe(gone);
    // The undos registered before the failing one still ran: the prompt's Interface is closed,
    // raw mode is off, and the conversation is closed.
    expect(session.closes()).toBe(1);
    expect(terminal.input.isRaw).toBe(false);
    expect(inputListeners(terminal)).toBe(left);
  });

  it('closes the conversation once when the agent cannot be made', async () => {
    const session = countingSession();
    const { exit } = startAgent({ model: stepModel(), session, questionTimeoutMs: 0 });
    await expect(exit).rejects.toThrow(TypeError);
    expect(session.closes()).toBe(1);
  });
});
