import { type AnyMessage, methods, type Stream } from '@agentclientprotocol/sdk';
import { deferred } from 'dsh-agent/testing';

/** One JSON-RPC message seen on the in-memory wire. */
export interface WireMessage {
  readonly to: 'agent' | 'client';
  readonly message: AnyMessage;
}

type Match = (entry: WireMessage) => boolean;

/** Matches a `$/cancel_request` sent to the client (for request `requestId`, when given). */
export function cancelRequest(requestId?: unknown): Match {
  return (entry) =>
    entry.to === 'client' &&
    'method' in entry.message &&
    entry.message.method === methods.protocol.cancelRequest &&
    (requestId === undefined ||
      (entry.message.params as { requestId?: unknown } | undefined)?.requestId === requestId);
}

/** Every message that crossed the wire, with a way to wait for one. */
export class Wire {
  readonly messages: WireMessage[] = [];
  private readonly watchers: { match: Match; resolve: (entry: WireMessage) => void }[] = [];

  record(entry: WireMessage): void {
    this.messages.push(entry);
    for (const watcher of [...this.watchers]) {
      if (watcher.match(entry)) {
        this.watchers.splice(this.watchers.indexOf(watcher), 1);
        watcher.resolve(entry);
      }
    }
  }

  /** The first message (already seen or still to come) that matches. */
  waitFor(match: Match): Promise<WireMessage> {
    const seen = this.messages.find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    const { promise, resolve } = deferred<WireMessage>();
    this.watchers.push({ match, resolve });
    return promise;
  }

  /** Messages to the client with the given method. */
  requestsToClient(method: string): AnyMessage[] {
    return this.messages
      .filter(
        (entry) =>
          entry.to === 'client' && 'method' in entry.message && entry.message.method === method,
      )
      .map((entry) => entry.message);
  }
}

/** An in-memory connection pair that records every message, and can drop like a dead editor. */
export interface TappedPipe {
  readonly agentStream: Stream;
  readonly clientStream: Stream;
  readonly wire: Wire;
  /** Ends both directions, as when the editor process goes away. */
  disconnect(): void;
}

function tap(to: WireMessage['to'], wire: Wire) {
  let control!: TransformStreamDefaultController<AnyMessage>;
  const stream = new TransformStream<AnyMessage, AnyMessage>({
    start(controller) {
      control = controller;
    },
    transform(message, controller) {
      wire.record({ to, message });
      controller.enqueue(message);
    },
  });
  return { stream, end: () => control.terminate() };
}

export function tappedPipe(): TappedPipe {
  const wire = new Wire();
  const toAgent = tap('agent', wire);
  const toClient = tap('client', wire);
  let ended = false;
  return {
    agentStream: { readable: toAgent.stream.readable, writable: toClient.stream.writable },
    clientStream: { readable: toClient.stream.readable, writable: toAgent.stream.writable },
    wire,
    disconnect() {
      if (ended) return;
      ended = true;
      toAgent.end();
      toClient.end();
    },
  };
}
