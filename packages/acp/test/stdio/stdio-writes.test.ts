import { PassThrough, Writable } from 'node:stream';
import type { AnyMessage } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { acpStdioStream } from '../../src/index.js';
import { directWritable } from '../../src/stdio/direct-writable.js';

/** An output that records each system write (`write` or `writev`) as the lines it carried. */
function recordingOutput() {
  const writes: string[][] = [];
  const output = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      writes.push(String(chunk).split('\n').filter(Boolean));
      callback();
    },
    writev(batch, callback) {
      writes.push(batch.flatMap(({ chunk }) => String(chunk).split('\n').filter(Boolean)));
      callback();
    },
  });
  return { output, writes };
}

const update = (text: string): AnyMessage => ({
  jsonrpc: '2.0',
  method: 'session/update',
  params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', text } },
});

describe('the output side', () => {
  it('sends a request or a response at once, with the notifications gathered before it, in one write', async () => {
    const { output, writes } = recordingOutput();
    const { writable } = acpStdioStream({ input: new PassThrough(), output });
    // As the SDK sends: a writer per message.
    const send = (message: AnyMessage) => {
      const writer = writable.getWriter();
      const written = writer.write(message);
      writer.releaseLock();
      return written;
    };
    void send(update('one '));
    void send(update('two'));
    expect(writes).toEqual([]);
    void send({ jsonrpc: '2.0', id: 7, method: 'elicitation/create', params: {} });
    // Before any later work: the editor waits for this request.
    expect(writes.map((lines) => lines.map((line) => JSON.parse(line).id ?? 'update'))).toEqual([
      ['update', 'update', 7],
    ]);
    void send(update('three'));
    void send({ jsonrpc: '2.0', id: 1, result: { stopReason: 'end_turn' } });
    expect(writes).toHaveLength(2);
    // A notification alone leaves once the current work is done.
    await send(update('four'));
    await new Promise<void>((resolve) => process.nextTick(resolve));
    expect(writes.flat().map((line) => JSON.parse(line).params?.update?.text ?? 'end')).toEqual([
      'one ',
      'two',
      'end',
      'three',
      'end',
      'four',
    ]);
  });
});

describe('directWritable', () => {
  it('hands out a writer that holds no lock and writes straight through, in order', async () => {
    const seen: number[] = [];
    const { writable } = directWritable<number>(async (chunk) => {
      seen.push(chunk);
    });
    const first = writable.getWriter();
    expect(writable.locked).toBe(false);
    const second = writable.getWriter();
    await Promise.all([first.write(1), second.write(2)]);
    first.releaseLock();
    await second.write(3);
    expect(seen).toEqual([1, 2, 3]);
    expect(second.desiredSize).toBe(1);
    await expect(second.ready).resolves.toBeUndefined();
  });

  it('throws as getWriter does while a WHATWG writer holds the stream', () => {
    const { writable } = directWritable<number>(async () => {});
    const whatwg = WritableStream.prototype.getWriter.call(writable);
    expect(writable.locked).toBe(true);
    expect(() => writable.getWriter()).toThrow(TypeError);
    whatwg.releaseLock();
    expect(() => writable.getWriter()).not.toThrow();
  });

  it('closes the stream from its writer: later writes reject and `closed` resolves', async () => {
    const seen: number[] = [];
    const { writable } = directWritable<number>(async (chunk) => {
      seen.push(chunk);
    });
    const writer = writable.getWriter();
    await writer.write(1);
    await writer.close();
    await expect(writer.closed).resolves.toBeUndefined();
    await expect(writable.getWriter().write(2)).rejects.toThrow(TypeError);
    expect(writer.desiredSize).toBeNull();
    expect(seen).toEqual([1]);
  });

  it('fails every later write, and `closed`, once the stream fails or is aborted', async () => {
    const failing = directWritable<number>(async () => {});
    const error = new Error('write EPIPE');
    failing.fail(error);
    await expect(failing.writable.getWriter().write(1)).rejects.toBe(error);
    await expect(failing.writable.getWriter().closed).rejects.toBe(error);

    const aborting = directWritable<number>(async () => {});
    const reason = new Error('gone');
    await aborting.writable.getWriter().abort(reason);
    await expect(aborting.writable.getWriter().write(1)).rejects.toBe(reason);
  });
});
