import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  notificationKind,
  notificationSequence,
} from '../../src/terminal-agent/notify/notification-sequence.js';
import {
  createWaitingNotifier,
  type NotifierClock,
  type NotifyMode,
} from '../../src/terminal-agent/notify/waiting-notifier.js';

const ESC = '\u001b';
const BEL = '\u0007';

describe('the notification of each terminal, byte for byte', () => {
  it('picks the notification a terminal understands', () => {
    expect(notificationKind({ TERM_PROGRAM: 'iTerm.app' })).toBe('osc9');
    expect(notificationKind({ TERM_PROGRAM: 'WezTerm' })).toBe('osc9');
    expect(notificationKind({ TERM_PROGRAM: 'ghostty' })).toBe('osc9');
    expect(notificationKind({ TERM: 'xterm-kitty' })).toBe('osc99');
    expect(notificationKind({ KITTY_WINDOW_ID: '1', TERM: 'xterm-256color' })).toBe('osc99');
    expect(notificationKind({ VTE_VERSION: '7600', TERM: 'xterm-256color' })).toBe('osc777');
    expect(notificationKind({ TERM: 'foot' })).toBe('osc777');
    expect(notificationKind({ KONSOLE_VERSION: '230800' })).toBe('osc777');
    expect(notificationKind({ TERM: 'xterm-256color' })).toBe('bell');
  });

  it('writes each kind exactly, its text inert, without separators, and capped', () => {
    const title = 'A question waits for you';
    expect(notificationSequence('osc9', title, 'Which database?')).toBe(
      `${ESC}]9;A question waits for you: Which database?${BEL}`,
    );
    expect(notificationSequence('osc777', title, 'Pick one; or two')).toBe(
      `${ESC}]777;notify;A question waits for you;Pick one, or two${BEL}`,
    );
    expect(notificationSequence('osc99', title, 'Which?')).toBe(
      `${ESC}]99;i=1:d=0;A question waits for you${ESC}\\${ESC}]99;i=1:p=body;Which?${ESC}\\`,
    );
    expect(notificationSequence('bell', title, 'x')).toBe(BEL);
    // A text that starts "<digit>;" is never taken for a progress report.
    expect(notificationSequence('osc9', '4', 'x')).toBe(`${ESC}]9; 4: x${BEL}`);
    // Model-written text cannot end the sequence or start another.
    const hostile = notificationSequence('osc777', title, `rm -rf${BEL}${ESC}]0;pwned${BEL}\nnext`);
    expect(hostile).toBe(
      `${ESC}]777;notify;A question waits for you;rm -rf^G^[]0,pwned^G↵next${BEL}`,
    );
    const long = notificationSequence('osc9', title, 'x'.repeat(1_000));
    expect(long.length).toBeLessThan(260);
    expect(long).toContain('…');
    // Inside tmux, wrapped for passthrough with every ESC doubled.
    expect(notificationSequence('osc9', title, 'Q', { tmux: true })).toBe(
      `${ESC}Ptmux;${ESC}${ESC}]9;A question waits for you: Q${BEL}${ESC}\\`,
    );
  });
});

/** A clock whose timers run only when the test says so. */
function manualClock() {
  const timers = new Map<number, () => void>();
  let next = 0;
  const clock: NotifierClock = {
    setTimeout(callback) {
      timers.set(++next, callback);
      return next;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
  };
  return {
    clock,
    fire() {
      const pending = [...timers.values()];
      timers.clear();
      for (const callback of pending) callback();
    },
  };
}

function setUp(mode: NotifyMode, env: NodeJS.ProcessEnv = { TERM_PROGRAM: 'iTerm.app' }) {
  let written = '';
  const output = new Writable({
    write(chunk, _encoding, callback) {
      written += chunk.toString();
      callback();
    },
  });
  const input = new PassThrough();
  const { clock, fire } = manualClock();
  let time = 0;
  const notifier = createWaitingNotifier({
    input: input as never,
    output: output as never,
    env,
    mode,
    say: () => {},
    cwd: '/w',
    sessionId: () => undefined,
    clock,
    now: () => time,
  });
  return {
    notifier,
    input,
    fire,
    advance: (ms: number) => {
      time += ms;
    },
    written: () => written,
    clear: () => {
      written = '';
    },
  };
}

describe('the waiting notifier', () => {
  it('marks the title while something waits and gives it back after', () => {
    const { notifier, written } = setUp('auto');
    const done = notifier.waiting({ kind: 'question', text: 'Which database?' });
    expect(written()).toBe(
      `${ESC}[22;0t${ESC}]0;◉ dsh: a question waits for you${BEL}${ESC}[?1004h`,
    );
    done();
    expect(written().endsWith(`${ESC}[?1004l${ESC}[23;0t`)).toBe(true);
    done();
    notifier.close();
    expect(written().match(/\[23;0t/g)).toHaveLength(1);
  });

  it('notifies at once when the terminal says it is not in front, never while it is', async () => {
    const { notifier, input, fire, written, clear } = setUp('auto');
    input.write(`${ESC}[I`);
    const done = notifier.waiting({ kind: 'approval', text: 'npm test' });
    input.write(`${ESC}[I`);
    await new Promise((resolve) => setImmediate(resolve));
    fire();
    expect(written()).not.toContain(']9;');
    clear();
    input.write(`${ESC}[O`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(written()).toBe(`${ESC}]9;An approval waits for you: npm test${BEL}`);
    // One per waiting item.
    input.write(`${ESC}[I${ESC}[O`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(written().match(/]9;/g)).toHaveLength(1);
    done();
  });

  it('notifies a terminal that never reports focus after its delay, once, with a cooldown', () => {
    const { notifier, fire, advance, written } = setUp('bell');
    const first = notifier.waiting({ kind: 'question', text: 'Q1' });
    expect(written()).not.toContain(BEL + BEL);
    fire();
    expect(written().split(BEL).length - 1).toBe(2); // the title's BEL, and the bell
    first();
    advance(1_000);
    const second = notifier.waiting({ kind: 'question', text: 'Q2' });
    fire();
    // Within the cooldown: the title again, no second bell.
    expect(written().split(BEL).length - 1).toBe(3);
    second();
    advance(40_000);
    const third = notifier.waiting({ kind: 'question', text: 'Q3' });
    fire();
    expect(written().split(BEL).length - 1).toBe(5);
    third();
  });

  it('writes nothing when notifications are off', () => {
    const { notifier, fire, written } = setUp('off');
    notifier.waiting({ kind: 'question', text: 'Q' })();
    fire();
    notifier.close();
    expect(written()).toBe('');
  });
});
