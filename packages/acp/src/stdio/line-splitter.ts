const NEWLINE = 0x0a;

/** A complete line, or what is kept of one that was over the limit. */
export type SplitLine =
  | { readonly kind: 'line'; readonly bytes: Uint8Array }
  | {
      readonly kind: 'oversized';
      /** The line's first bytes, to read its id from. */
      readonly head: Uint8Array;
      /** The whole line's length in bytes. */
      readonly byteLength: number;
    };

/**
 * Splits a byte stream into newline-terminated lines of at most `maxLineBytes` bytes, in time
 * linear in the input and memory bounded by the limit: a longer line is not kept whole, only
 * its first `headBytes`, and the rest is dropped as it arrives, up to its newline.
 */
export class LineSplitter {
  readonly #maxLineBytes: number;
  readonly #headBytes: number;
  #parts: Uint8Array[] = [];
  #byteLength = 0;
  #head: Uint8Array | undefined;

  constructor(maxLineBytes: number, headBytes: number) {
    this.#maxLineBytes = maxLineBytes;
    this.#headBytes = Math.min(headBytes, maxLineBytes);
  }

  /** Takes a chunk; yields every line it completes, without its newline. */
  *push(chunk: Uint8Array): Generator<SplitLine> {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(NEWLINE, start);
      this.#append(chunk.subarray(start, end === -1 ? chunk.length : end));
      if (end === -1) return;
      yield this.#take();
      start = end + 1;
    }
  }

  /** The last line, when the input ended without a newline after it. */
  flush(): SplitLine | undefined {
    return this.#byteLength === 0 ? undefined : this.#take();
  }

  #append(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.#byteLength += bytes.length;
    if (this.#head !== undefined) return;
    // Copied: a stream may reuse the buffer of a chunk it has handed over.
    this.#parts.push(bytes.slice());
    if (this.#byteLength > this.#maxLineBytes) {
      this.#head = concat(this.#parts, this.#headBytes);
      this.#parts = [];
    }
  }

  #take(): SplitLine {
    const head = this.#head;
    const byteLength = this.#byteLength;
    const line: SplitLine =
      head === undefined
        ? { kind: 'line', bytes: concat(this.#parts, byteLength) }
        : { kind: 'oversized', head, byteLength };
    this.#parts = [];
    this.#byteLength = 0;
    this.#head = undefined;
    return line;
  }
}

/** The first `limit` bytes of `parts`, as one array. */
function concat(parts: readonly Uint8Array[], limit: number): Uint8Array {
  if (parts.length === 1 && (parts[0] as Uint8Array).length <= limit) return parts[0] as Uint8Array;
  let length = 0;
  for (const part of parts) length += part.length;
  const bytes = new Uint8Array(Math.min(length, limit));
  let offset = 0;
  for (const part of parts) {
    if (offset >= bytes.length) break;
    const piece = part.subarray(0, bytes.length - offset);
    bytes.set(piece, offset);
    offset += piece.length;
  }
  return bytes;
}
