/** Bytes of output kept from the start and from the end; what lies between is counted, not kept. */
export const KEPT_OUTPUT = 16 * 1024;

/** How long the output of a command that exited is read for, when something holds its pipes open. */
export const DRAIN_MS = 1000;

/** Resolves once every stream has ended or closed, or after `ms`; then stops reading them. */
export async function drained(
  streams: readonly (
    | (NodeJS.ReadableStream & { destroy(): void; readableEnded?: boolean; closed?: boolean })
    | null
  )[],
  ms: number,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const open = streams.filter(
    (stream): stream is NonNullable<typeof stream> =>
      stream !== null && stream.readableEnded !== true && stream.closed !== true,
  );
  await Promise.race([
    Promise.all(
      open.map(
        (stream) =>
          new Promise<void>((resolve) => {
            stream.once('end', resolve);
            stream.once('close', resolve);
          }),
      ),
    ),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
  for (const stream of open) stream.destroy();
}

/** The start and the end of a stream of output, in bounded memory. */
export class KeptOutput {
  #head = Buffer.alloc(0);
  #tail: Buffer[] = [];
  #tailBytes = 0;
  #dropped = 0;

  add(chunk: Buffer): void {
    if (this.#head.length < KEPT_OUTPUT) {
      const room = KEPT_OUTPUT - this.#head.length;
      this.#head = Buffer.concat([this.#head, chunk.subarray(0, room)]);
      chunk = chunk.subarray(room);
    }
    if (chunk.length === 0) return;
    this.#tail.push(chunk);
    this.#tailBytes += chunk.length;
    while (this.#tailBytes > KEPT_OUTPUT) {
      const first = this.#tail[0] as Buffer;
      const excess = this.#tailBytes - KEPT_OUTPUT;
      if (first.length <= excess) {
        this.#tail.shift();
        this.#tailBytes -= first.length;
        this.#dropped += first.length;
      } else {
        this.#tail[0] = first.subarray(excess);
        this.#tailBytes -= excess;
        this.#dropped += excess;
      }
    }
  }

  text(): string {
    const head = this.#head.toString('utf8');
    const tail = Buffer.concat(this.#tail).toString('utf8');
    if (this.#dropped === 0) return head + tail;
    return `${head}\n[… ${this.#dropped} bytes of output not kept …]\n${tail}`;
  }
}
