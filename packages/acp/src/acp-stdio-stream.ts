import { Readable, Writable } from 'node:stream';
import { ndJsonStream, type Stream } from '@agentclientprotocol/sdk';

/** The byte streams an ACP agent talks over: the editor writes to `input` and reads `output`. */
export interface AcpStdio {
  /** Where the client's messages arrive (default: `process.stdin`). */
  readonly input?: Readable;
  /** Where this side's messages go (default: `process.stdout`); nothing else may be written there. */
  readonly output?: Writable;
}

/**
 * An ACP stream over newline-delimited JSON-RPC on two Node streams, as editors speak it on
 * an agent's stdin and stdout. A write to an output whose reader is gone (`EPIPE`) closes
 * the connection instead of crashing the process.
 */
export function acpStdioStream({
  input = process.stdin,
  output = process.stdout,
}: AcpStdio = {}): Stream {
  // The web stream adapter stops listening for errors once the stream ends; a late EPIPE
  // would then be an uncaught exception.
  output.on('error', () => {});
  return ndJsonStream(
    Writable.toWeb(output) as WritableStream<Uint8Array>,
    Readable.toWeb(input) as ReadableStream<Uint8Array>,
  );
}
