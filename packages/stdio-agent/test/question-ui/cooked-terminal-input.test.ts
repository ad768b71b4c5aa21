import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { cookedTerminalInput } from '../../src/question-ui/line-mode/cooked-terminal-input.js';
import { lineReaderFor } from '../../src/question-ui/line-mode/line-reader.js';

/** A terminal's input in cooked mode: Ctrl+D on an empty line ends the stream. */
function keyboard(): PassThrough & { fd: number } {
  return Object.assign(new PassThrough(), { fd: 0 });
}

function setup() {
  const opened = [keyboard()];
  const current = () => opened[opened.length - 1] as PassThrough & { fd: number };
  const input = cookedTerminalInput(current(), {
    takeEndKey: () => lines.takeEndKey(),
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
