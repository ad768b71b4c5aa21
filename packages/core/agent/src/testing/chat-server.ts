import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { deferred } from './deferred.js';
import {
  type EventStream,
  listenOnLoopback,
  readRequestBody,
  sendBody,
  startEventStream,
} from './loopback-http.js';

/** How the server answers one request. */
export interface ChatReply {
  /** HTTP status (default 200). */
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** A plain body, sent as is (errors, non-SSE answers). */
  readonly body?: string;
  /** SSE events: an object is sent as its JSON, a string as the raw `data:` payload. */
  readonly chunks?: readonly (object | string)[];
  /** Ends the stream with `data: [DONE]` (default: true when there are chunks). */
  readonly done?: boolean;
  /** Keeps the connection open after the chunks, until the client goes away. */
  readonly hold?: boolean;
  /**
   * Accepts the request and never answers (no status, no headers, no body) until the client
   * goes away: an unresponsive server.
   */
  readonly stall?: boolean;
  /** Sends the chunks this many milliseconds apart, like a model that writes slowly. */
  readonly everyMs?: number;
  /**
   * After the chunks, sends an SSE comment (`: keep-alive`) this many milliseconds apart and
   * never ends the stream, until the client goes away: a server that keeps an idle stream open.
   */
  readonly keepAliveEveryMs?: number;
  /** Destroys the socket after the chunks, like a server that crashed mid-response. */
  readonly destroy?: boolean;
}

/** A request the server received. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
  /** Resolves when the connection of this request closes. */
  readonly closed: Promise<void>;
  /** Whether the server had finished its answer when the connection closed. */
  readonly finished: () => boolean;
}

/**
 * A chat-completions server on 127.0.0.1 (port 0) that answers each request with the next
 * reply, streaming SSE `data:` lines as servers do.
 */
export async function startChatServer(replies: readonly ChatReply[]) {
  const queue = [...replies];
  const requests: RecordedRequest[] = [];
  const arrivals: ReturnType<typeof deferred<RecordedRequest>>[] = [];
  const arrival = (index: number) => {
    arrivals[index] ??= deferred<RecordedRequest>();
    return arrivals[index];
  };

  function answer(response: ServerResponse, reply: ChatReply): void {
    const status = reply.status ?? 200;
    if (reply.stall) return;
    if (reply.chunks === undefined) {
      sendBody(response, status, reply.body ?? '', reply.headers);
      return;
    }
    const events = startEventStream(response, status, reply.headers);
    if (reply.everyMs === undefined) {
      for (const chunk of reply.chunks) events.send(chunk);
      end(response, events, reply);
      return;
    }
    const { everyMs } = reply;
    const pending = [...reply.chunks];
    const next = (): void => {
      if (response.destroyed) return;
      const chunk = pending.shift();
      if (chunk === undefined) {
        end(response, events, reply);
        return;
      }
      events.send(chunk);
      setTimeout(next, everyMs);
    };
    next();
  }

  /** Ends a stream the way the reply says. */
  function end(response: ServerResponse, events: EventStream, reply: ChatReply): void {
    if (reply.destroy) {
      // Once what was written has reached the socket, so the client sees a response cut short.
      response.write('', () => response.socket?.destroy());
      return;
    }
    if (reply.keepAliveEveryMs !== undefined) {
      const timer = setInterval(() => response.write(': keep-alive\n\n'), reply.keepAliveEveryMs);
      response.on('close', () => clearInterval(timer));
      return;
    }
    if (reply.hold) return;
    if (reply.done ?? true) events.done();
    else response.end();
  }

  const server = await listenOnLoopback(async (request, response) => {
    const text = await readRequestBody(request);
    const closed = deferred();
    response.on('close', () => closed.resolve());
    const recorded: RecordedRequest = {
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
      body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
      closed: closed.promise,
      finished: () => response.writableFinished,
    };
    requests.push(recorded);
    arrival(requests.length - 1).resolve(recorded);
    const reply = queue.shift();
    if (reply === undefined) {
      response.writeHead(500).end('{"error":{"message":"no reply queued"}}');
      return;
    }
    answer(response, reply);
  });
  return {
    url: `http://127.0.0.1:${server.port}/v1`,
    requests,
    /** Resolves with the n-th request (0-based) when it arrives. */
    request: (index: number) => arrival(index).promise,
    close: () => server.close(),
  };
}

/** A port on 127.0.0.1 that was just opened and closed: connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const server = await listenOnLoopback();
  await server.close();
  return server.port;
}

const base = {
  id: 'chatcmpl-7',
  object: 'chat.completion.chunk',
  created: 1764489600,
  model: 'test-model',
};

/** A chunk with the given delta and finish reason, in the shape servers send. */
export function chunk(delta: object, finishReason: string | null = null): object {
  return { ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] };
}

/** The chunks of a text answer, one per piece. */
export function textChunks(...pieces: string[]): object[] {
  return [
    chunk({ role: 'assistant', content: '' }),
    ...pieces.map((piece) => chunk({ content: piece })),
    chunk({}, 'stop'),
  ];
}
