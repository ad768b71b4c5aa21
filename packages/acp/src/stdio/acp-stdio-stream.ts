import type { Readable, Writable } from 'node:stream';
import {
  type AnyMessage,
  type JsonRpcId,
  RequestError,
  type Stream,
} from '@agentclientprotocol/sdk';
import { directWritable } from './direct-writable.js';
import { inputChunks } from './input-chunks.js';
import { LineSplitter, type SplitLine } from './line-splitter.js';
import { logText } from './log-text.js';
import { messageHead } from './message-head.js';
import { MAX_MESSAGE_BYTES } from './message-size.js';

/** The byte streams an ACP agent talks over: the editor writes to `input` and reads `output`. */
export interface AcpStdio {
  /** Where the client's messages arrive (default: `process.stdin`). */
  readonly input?: Readable;
  /** Where this side's messages go (default: `process.stdout`); nothing else may be written there. */
  readonly output?: Writable;
  /** The longest message read, in bytes (default: the SDK's, 32 MiB). */
  readonly maxMessageBytes?: number;
  /** Receives a line when a message is refused for its size (default: none). */
  readonly log?: (line: string) => void;
}

/** How much of an oversized message is kept to read its id from. */
const HEAD_BYTES = 64 * 1024;

function errorResponse(id: JsonRpcId, error: RequestError): AnyMessage {
  return { jsonrpc: '2.0', id, error: error.toErrorResponse() };
}

function tooLarge(maxMessageBytes: number): RequestError {
  return RequestError.invalidRequest(
    { code: 'MESSAGE_TOO_LARGE', maxMessageBytes },
    `the message is longer than ${maxMessageBytes} bytes, the most this agent reads`,
  );
}

/**
 * An ACP stream over newline-delimited JSON-RPC on two Node streams, as editors speak it on
 * an agent's stdin and stdout. A message longer than `maxMessageBytes` is refused on its own,
 * without keeping it whole (the SDK's own reader would end the connection, and every session
 * with it): a request gets an `-32600` error (`data.code` `MESSAGE_TOO_LARGE`) when its id can
 * be read from its start, a response fails the request it answers, anything else gets the
 * error with `id: null`; `log` says so. A write to an output whose reader is gone (`EPIPE`)
 * closes the connection instead of crashing the process.
 */
export function acpStdioStream({
  input = process.stdin,
  output = process.stdout,
  maxMessageBytes = MAX_MESSAGE_BYTES,
  log = () => {},
}: AcpStdio = {}): Stream {
  const source = inputChunks(input);
  const decoder = new TextDecoder();
  let failure: unknown;
  const onFailure: ((error: unknown) => void)[] = [];
  // Listened to for the life of the process: a late EPIPE must never be uncaught. The first
  // failure ends both sides: nothing more can be said, so the connection closes.
  output.on('error', (error) => {
    if (failure !== undefined) return;
    failure = error;
    for (const fail of onFailure.splice(0)) fail(error);
  });
  let corked = false;
  let uncorkScheduled = false;
  const uncork = (): void => {
    if (!corked) return;
    corked = false;
    output.uncork();
  };
  const uncorkLater = (): void => {
    uncorkScheduled = false;
    uncork();
  };

  // Messages go to the output in the order they are written. Notifications written in one go
  // (a turn's updates) are gathered and leave in one system write with the next request or
  // response, or once the current work is done: a request or a response leaves at once, with
  // what was gathered before it, since the editor waits for it (held until the work queued
  // after it was done, it would wait for that too). A message waits only when the output's
  // buffer is full.
  const write = (message: AnyMessage): Promise<void> => {
    if (failure !== undefined) return Promise.reject(failure);
    const line = `${JSON.stringify(message)}\n`;
    if (!corked) {
      corked = true;
      output.cork();
      if (!uncorkScheduled) {
        uncorkScheduled = true;
        process.nextTick(uncorkLater);
      }
    }
    const written = output.write(line);
    if ('id' in message) uncork();
    if (written) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const settle = (): void => {
        output.removeListener('drain', settle);
        output.removeListener('close', settle);
        output.removeListener('error', settle);
        if (failure === undefined && !output.destroyed) resolve();
        else reject(failure ?? new Error('the output closed'));
      };
      output.once('drain', settle);
      output.once('close', settle);
      output.once('error', settle);
    });
  };

  async function refuse(
    line: Extract<SplitLine, { kind: 'oversized' }>,
    deliver: (message: AnyMessage) => void,
  ): Promise<void> {
    const head = messageHead(decoder.decode(line.head));
    const error = tooLarge(maxMessageBytes);
    const what =
      head.id === undefined
        ? 'a message whose id cannot be read'
        : `${head.kind === 'response' ? 'a response to request' : 'request'} ${logText(JSON.stringify(head.id))}`;
    log(`refused ${what}: ${line.byteLength} bytes, over the ${maxMessageBytes}-byte limit`);
    if (head.kind === 'response' && head.id !== undefined && head.id !== null) {
      // Ours is the request it answers: it fails, instead of waiting for ever.
      deliver(errorResponse(head.id, error));
    } else {
      await write(errorResponse(head.kind === 'call' ? (head.id ?? null) : null, error));
    }
  }

  async function handle(line: SplitLine, deliver: (message: AnyMessage) => void): Promise<void> {
    if (line.kind === 'oversized') return await refuse(line, deliver);
    const text = decoder.decode(line.bytes).trim();
    if (text === '') return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return void (await write(errorResponse(null, RequestError.parseError())));
    }
    // ACP has no batches: an array gets one -32600 with `id: null`, unprocessed.
    if (Array.isArray(message)) {
      await write(
        errorResponse(
          null,
          RequestError.invalidRequest(undefined, 'JSON-RPC batches are not supported'),
        ),
      );
    } else if (typeof message === 'object' && message !== null) {
      deliver(message as AnyMessage);
    } else {
      await write(errorResponse(null, RequestError.invalidRequest(message)));
    }
  }

  let cancelled = false;
  const readable = new ReadableStream<AnyMessage>({
    async start(controller) {
      onFailure.push((error) => {
        if (cancelled) return;
        cancelled = true;
        controller.error(error);
        source.cancel(error);
      });
      const lines = new LineSplitter(maxMessageBytes, HEAD_BYTES);
      const deliver = (message: AnyMessage): void => controller.enqueue(message);
      try {
        for (;;) {
          const value = await source.next();
          if (cancelled) return;
          if (value === undefined) break;
          for (const line of lines.push(value)) {
            await handle(line, deliver);
            if (cancelled) return;
          }
        }
        const last = lines.flush();
        if (last !== undefined) await handle(last, deliver);
      } catch (error) {
        if (cancelled) return;
        controller.error(error);
        source.cancel(error);
        return;
      }
      if (!cancelled) controller.close();
    },
    cancel(reason) {
      cancelled = true;
      source.cancel(reason);
    },
  });
  // The SDK takes a writer per message: a direct one spares it the WHATWG writer's cost.
  const { writable, fail } = directWritable(write);
  onFailure.push(fail);
  return { readable, writable };
}
