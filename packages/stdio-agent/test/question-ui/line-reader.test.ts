import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { lineReaderFor } from '../../src/index.js';

function setup() {
  const input = new PassThrough();
  const readline = createInterface({ input, terminal: false });
  return { input, readline, reader: lineReaderFor(readline) };
}

describe('lineReaderFor', () => {
  it('gives one reader per Interface', () => {
    const { readline, reader } = setup();
    expect(lineReaderFor(readline)).toBe(reader);
    readline.close();
  });

  it('hands out lines that all arrived in one chunk, in order, to later reads', async () => {
    const { input, reader } = setup();
    input.write('hello\n1\nmy-app\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(reader.buffered).toBe(3);
    expect(await reader.read()).toBe('hello');
    expect(await reader.read()).toBe('1');
    expect(await reader.read()).toBe('my-app');
    expect(reader.buffered).toBe(0);
  });

  it('serves waiting readers first in, first out', async () => {
    const { input, reader } = setup();
    const first = reader.read();
    const second = reader.read();
    input.write('a\nb\n');
    expect(await Promise.all([first, second])).toEqual(['a', 'b']);
  });

  it('keeps a line for the next reader when a waiting read is aborted', async () => {
    const { input, reader } = setup();
    const controller = new AbortController();
    const withdrawn = reader.read({ signal: controller.signal });
    const reason = new Error('gone');
    controller.abort(reason);
    await expect(withdrawn).rejects.toBe(reason);
    input.write('kept\n');
    expect(await reader.read()).toBe('kept');
    await expect(reader.read({ signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });

  it('ends every waiting read with undefined when the input ends, after the buffered lines', async () => {
    const { input, reader } = setup();
    input.end('last\nunterminated');
    await new Promise((resolve) => setImmediate(resolve));
    expect(reader.ended).toBe(true);
    expect(reader.exhausted).toBe(false);
    expect(await reader.read()).toBe('last');
    expect(await reader.read()).toBe('unterminated');
    expect(reader.exhausted).toBe(true);
    expect(await reader.read()).toBeUndefined();
  });

  it('settles reads already waiting when the Interface closes', async () => {
    const { readline, reader } = setup();
    const waiting = [reader.read(), reader.read()];
    readline.close();
    expect(await Promise.all(waiting)).toEqual([undefined, undefined]);
  });

  it('knows an Interface that closed before it was attached', async () => {
    const input = new PassThrough();
    const readline = createInterface({ input, terminal: false });
    readline.close();
    expect(await lineReaderFor(readline).read()).toBeUndefined();
  });
});
