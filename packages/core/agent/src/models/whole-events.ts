import { HarnessError } from 'dsh-user-interaction';

/** The largest stream event (one SSE `data:` line and its event) a model server may send: 64 MiB. */
export const MAX_STREAM_EVENT_BYTES = 64 * 1024 * 1024;

/**
 * A stream event larger than `MAX_STREAM_EVENT_BYTES`: the stream is cut there. The model client
 * turns it into a `ModelError` (`MODEL_BAD_RESPONSE`) saying so; this one never leaves the package.
 */
export class StreamEventTooLargeError extends HarnessError<'MODEL_BAD_RESPONSE'> {
  constructor(readonly limitBytes: number) {
    super(`A stream event is larger than ${limitBytes} bytes.`, 'MODEL_BAD_RESPONSE');
  }

  static {
    HarnessError.mark(StreamEventTooLargeError, 'StreamEventTooLargeError');
  }
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Re-cuts a server-sent-events body so that every chunk ends where an event ends (a blank
 * line: `\n\n`, `\r\r` or `\r\n\r\n`). The `openai` package's decoder copies and rescans all it
 * holds for every chunk that does not end an event, so one event spread over many chunks
 * costs time quadratic in its size (a 16 MB line took 17 s); whole events cost it one pass.
 * Parts of an unfinished event are kept as they came and joined once, so this is linear too.
 * An event over `limitBytes` errors the stream with `StreamEventTooLargeError`.
 */
export function wholeEvents(
  limitBytes = MAX_STREAM_EVENT_BYTES,
): TransformStream<Uint8Array, Uint8Array> {
  let parts: Uint8Array[] = [];
  let held = 0;
  // The three bytes before the current one, across chunks: an event end can straddle two.
  let back1 = -1;
  let back2 = -1;
  let back3 = -1;
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      // The same ends the `openai` package looks for, so that it holds nothing back.
      let end = -1;
      let firstEnd = -1;
      // Most pieces of a long line hold no line end at all: found natively, without a loop.
      const scan = chunk.indexOf(LF) !== -1 || chunk.indexOf(CR) !== -1;
      for (let index = scan ? 0 : Math.max(0, chunk.length - 3); index < chunk.length; index++) {
        const byte = chunk[index] as number;
        if (
          ((byte === LF || byte === CR) && back1 === byte) ||
          (byte === LF && back1 === CR && back2 === LF && back3 === CR)
        ) {
          end = index;
          if (firstEnd === -1) firstEnd = index;
        }
        back3 = back2;
        back2 = back1;
        back1 = byte;
      }
      // Whether the event before the first end here, or the part held after the last, is too large.
      const first = end === -1 ? chunk.length : firstEnd;
      if (held + first > limitBytes || (end !== -1 && chunk.length - end - 1 > limitBytes)) {
        controller.error(new StreamEventTooLargeError(limitBytes));
        return;
      }
      if (end === -1) {
        held += chunk.length;
        parts.push(chunk);
        return;
      }
      // Everything up to the last event end goes on in one piece; the rest waits.
      const head = chunk.subarray(0, end + 1);
      if (parts.length === 0) controller.enqueue(head);
      else {
        parts.push(head);
        controller.enqueue(join(parts, held + head.length));
      }
      const tail = chunk.subarray(end + 1);
      parts = tail.length === 0 ? [] : [tail];
      held = tail.length;
    },
    flush(controller) {
      if (parts.length > 0) controller.enqueue(join(parts, held));
    },
  });
}

function join(parts: readonly Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1 && parts[0] !== undefined) return parts[0];
  const joined = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

/** A `fetch` whose successful responses reach the caller in whole events (`wholeEvents`). */
export function wholeEventsFetch(base: typeof fetch, limitBytes?: number): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (!response.ok || response.body === null) return response;
    return new Response(response.body.pipeThrough(wholeEvents(limitBytes)), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
