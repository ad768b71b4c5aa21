import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { cookedTerminalInput } from '../../src/question-ui/line-mode/cooked-terminal-input.js';
import { lineReaderFor } from '../../src/question-ui/line-mode/line-reader.js';

/** A terminal's input in cooked mode: Ctrl+D on an empty line ends the stream. */
function keyboard(): PassThrough & { fd: number } {
  return Object.assign(new PassThrough(), { fd: 0 });
}

function setup(clock = { now: 0 }) {
  const opened = [keyboard()];
  const current = () => opened[opened.length - 1] as PassThrough & { fd: number };
  const input = cookedTerminalInput(current(), {
    takeEndKey: () => lines.takeEndKey(),
    now: () => clock.now,
    reopen: (fd) => {
      expect(fd).toBe(0);
      opened.push(keyboard());
      return current();
    },
  });
  const readline = createInterface({ input, terminal: false });
  const lines = lineReaderFor(readline);
  return { input, readline, lines, opened, current };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A question's read: Ctrl+D declines it (noted in `taken` under `name`), and it stops reading. */
function questionRead(
  lines: ReturnType<typeof setup>['lines'],
  name: string,
  taken: string[],
): void {
  const controller = new AbortController();
  void lines
    .read({
      signal: controller.signal,
      onEndKey: () => {
        taken.push(name);
        controller.abort();
      },
    })
    .catch(() => {});
}

describe('cookedTerminalInput', () => {
  it('is a terminal to whoever asks, so typed lines are not echoed twice', () => {
    const { input, readline } = setup();
    expect(input.isTTY).toBe(true);
    readline.close();
  });

  it('gives Ctrl+D to the read waiting for it, opens the terminal again, and reads on', async () => {
    const { lines, opened, current } = setup();
    const controller = new AbortController();
    let ended = 0;
    const read = lines.read({
      signal: controller.signal,
      onEndKey: () => {
        ended++;
        controller.abort(new Error('ended by Ctrl+D'));
      },
    });
    current().end();
    await expect(read).rejects.toThrow('ended by Ctrl+D');
    expect(ended).toBe(1);
    expect(opened).toHaveLength(2);
    expect(lines.ended).toBe(false);
    const next = lines.read();
    current().write('hello\n');
    expect(await next).toBe('hello');
  });

  it('ends the input on Ctrl+D when no read takes it (at the prompt)', async () => {
    const { input, lines, opened, current } = setup();
    const read = lines.read();
    current().end();
    expect(await read).toBeUndefined();
    expect(lines.exhausted).toBe(true);
    expect(input.readableEnded || input.writableEnded).toBe(true);
    expect(opened).toHaveLength(1);
  });

  it('completes a line typed before Ctrl+D instead of taking the key', async () => {
    const { lines, opened, current } = setup();
    let taken = 0;
    const read = lines.read({ onEndKey: () => taken++ });
    current().write('my-');
    current().write('app');
    current().end();
    expect(await read).toBe('my-app');
    expect(taken).toBe(0);
    expect(opened).toHaveLength(2);
  });

  it('closes the terminal it opened itself when destroyed, and never reads again', async () => {
    const { input, lines, opened, current } = setup();
    const controller = new AbortController();
    const read = lines.read({ signal: controller.signal, onEndKey: () => controller.abort() });
    current().end();
    await read.catch(() => {});
    input.destroy();
    await turn();
    expect(opened).toHaveLength(2);
    expect(opened[1]?.destroyed).toBe(true);
  });

  it('ends, without opening the terminal again and again, when the terminal hung up', async () => {
    const clock = { now: 1_000 };
    const { lines, opened, current, input } = setup(clock);
    let taken = 0;
    const controller = new AbortController();
    void lines.read({ signal: controller.signal, onEndKey: () => taken++ }).catch(() => {});
    current().end();
    await turn();
    expect(opened).toHaveLength(2);
    // The terminal opened again ends at once with nothing: a hang-up, or a key sent at once. It
    // is opened once more to tell; ending at once again, it hung up: nothing more is taken.
    current().end();
    await turn();
    expect(opened).toHaveLength(3);
    expect(taken).toBe(1);
    current().end();
    await turn();
    expect(opened).toHaveLength(3);
    expect(taken).toBe(1);
    expect(input.writableEnded).toBe(true);
    controller.abort();
  });

  it('takes a Ctrl+D sent at once after the terminal opened again as a key when the terminal stays', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const clock = { now: 1_000 };
      const { lines, opened, current, input } = setup(clock);
      const taken: string[] = [];
      questionRead(lines, 'first', taken);
      current().end();
      await turn();
      expect(taken).toEqual(['first']);
      // A program driving the terminal answers the next question at once, with Ctrl+D.
      questionRead(lines, 'second', taken);
      current().end();
      await turn();
      expect(taken).toEqual(['first']);
      expect(opened).toHaveLength(3);
      vi.advanceTimersByTime(10);
      expect(taken).toEqual(['first', 'second']);
      expect(input.writableEnded).toBe(false);
      // And the input goes on: the next line is read.
      const next = lines.read({});
      current().write('more\n');
      await expect(next).resolves.toBe('more');
    } finally {
      vi.useRealTimers();
    }
  });

  it('takes a held Ctrl+D before the text typed after it', async () => {
    const clock = { now: 1_000 };
    const { lines, current } = setup(clock);
    const taken: string[] = [];
    questionRead(lines, 'first', taken);
    current().end();
    await turn();
    questionRead(lines, 'second', taken);
    current().end();
    await turn();
    const next = lines.read({});
    current().write('typed\n');
    await expect(next).resolves.toBe('typed');
    expect(taken).toEqual(['first', 'second']);
  });

  it('takes two presses of Ctrl+D apart in time as two keys', async () => {
    const clock = { now: 1_000 };
    const { lines, opened, current } = setup(clock);
    let taken = 0;
    void lines.read({ onEndKey: () => taken++ });
    current().end();
    await turn();
    clock.now += 200;
    current().end();
    await turn();
    expect(taken).toBe(2);
    expect(opened).toHaveLength(3);
  });

  it('ends when the terminal cannot be opened again', async () => {
    const first = keyboard();
    const input = cookedTerminalInput(first, {
      takeEndKey: () => true,
      reopen: () => {
        throw Object.assign(new Error('gone'), { code: 'EBADF' });
      },
    });
    const errors: unknown[] = [];
    input.on('error', (error) => errors.push(error));
    const finished = new Promise<void>((resolve) => input.once('finish', () => resolve()));
    first.end();
    await finished;
    // The end of the input, as a pipe's: no error, no crash from a listener.
    expect(input.writableEnded).toBe(true);
    expect(errors).toEqual([]);
  });

  it("leaves the process's own input paused, not destroyed, when destroyed before any Ctrl+D", async () => {
    const { input, opened } = setup();
    input.destroy();
    await turn();
    const first = opened[0] as PassThrough;
    expect(first.destroyed).toBe(false);
    expect(first.isPaused()).toBe(true);
    expect(first.listenerCount('data')).toBe(0);
  });
});
