import type { Model } from 'dsh-agent';
import { describe, expect, it, vi } from 'vitest';
import type { FakeTerminal } from '../../src/testing.js';
import { KEYS } from '../../src/testing.js';
import { startAgent, waitForPrompt } from '../support/agent-harness.js';

/** Asks one question per turn, then says which turn it was. */
const questionEveryTurn: Model = {
  id: 'question-every-turn',
  async *stream({ messages }) {
    const last = messages[messages.length - 1];
    const turn = messages.filter((message) => message.role === 'user').length;
    if (last?.role === 'user') {
      yield {
        type: 'tool-call',
        call: {
          id: `ask_${turn}`,
          name: 'ask_user_question',
          arguments: JSON.stringify({ question: `Question ${turn}?`, options: [{ label: 'Yes' }] }),
        },
      };
      yield { type: 'finish', reason: 'tool-calls' };
      return;
    }
    yield { type: 'text-delta', text: `Done ${turn}.` };
    yield { type: 'finish', reason: 'stop' };
  },
};

function count(text: string, part: string): number {
  return text.split(part).length - 1;
}

/** Listeners on the streams and the process, and whether anything still wraps `emit`. */
function footprint(terminal: FakeTerminal) {
  const listeners = (emitter: NodeJS.EventEmitter) =>
    Object.fromEntries(
      emitter.eventNames().map((name) => [String(name), emitter.listenerCount(name)]),
    );
  return {
    input: listeners(terminal.input),
    output: listeners(terminal.output),
    // Every event of the process (exit, SIGINT, SIGTERM, SIGTSTP, SIGCONT, SIGWINCH,
    // uncaughtException...), not a list that a new listener could miss.
    process: listeners(process),
    wrapped: [Object.hasOwn(terminal.input, 'emit'), Object.hasOwn(terminal.output, 'emit')],
  };
}

describe('the terminal agent over many turns', () => {
  it('leaves no listener behind, whether questions are answered or turns cancelled', async () => {
    const { terminal, type } = startAgent({ model: questionEveryTurn });
    const turn = async (n: number, cancel: boolean) => {
      type(`turn ${n}`);
      const fast = { interval: 2 };
      await vi.waitFor(() => expect(count(terminal.written, `Question ${n}?`)).toBe(1), fast);
      terminal.press(cancel ? KEYS.ctrlC : '1');
      const end = cancel ? 'Turn cancelled.' : `Done ${n}.`;
      await vi.waitFor(() => expect(count(terminal.written, end)).toBe(cancel ? n / 2 : 1), fast);
      await waitForPrompt(terminal, 2);
    };
    await waitForPrompt(terminal);
    await turn(1, false);
    const before = footprint(terminal);
    expect(before.wrapped).toEqual([false, false]);
    for (let n = 2; n <= 30; n++) await turn(n, n % 2 === 0);
    expect(footprint(terminal)).toEqual(before);
  });
});
