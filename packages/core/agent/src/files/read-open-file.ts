import { readSync } from 'node:fs';

/**
 * Reads the whole file open as `fd`, `size` bytes as `fstat` saw them, or more if it grew:
 * a byte more is asked for, so a file found as it was seen is read in one call, its end
 * known without a second read that finds nothing.
 */
export function readOpenFile(fd: number, size: number): Buffer {
  const chunks: Buffer[] = [];
  let position = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.max(size + 1 - position, 64 * 1024));
    const read = readSync(fd, chunk, 0, chunk.length, position);
    if (read === 0) break;
    chunks.push(chunk.subarray(0, read));
    position += read;
    // Short of what was asked for, at the size seen: the end (a file that grew fills the chunk
    // past it; one that shrank or a short read is read on, to a read of nothing).
    if (position === size && read < chunk.length) break;
  }
  // Read in one piece but for a file that grew meanwhile: nothing to join.
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
}
