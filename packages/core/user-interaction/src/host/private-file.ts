import {
  chmodSync,
  closeSync,
  constants,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { OWN_FILE_FLAGS } from './own-file-check.js';

/** Every byte of an open file `fstat` said has `size` bytes (fewer, if it shrank meanwhile). */
export function readOpenFile(fd: number, size: number): Buffer {
  const buffer = Buffer.alloc(size);
  let read = 0;
  while (read < buffer.length) {
    const got = readSync(fd, buffer, read, buffer.length - read, read);
    if (got === 0) break;
    read += got;
  }
  return buffer.subarray(0, read);
}

let written = 0;

/**
 * Writes `bytes` as `<folder>/<name>` whole or not at all: a new file readable by its owner only
 * (0600, made with `O_EXCL`, never through a link) renamed over the old one, in a folder made
 * readable by its owner only. Throws what failed, leaving no temporary file behind.
 */
export function writePrivateFile(folder: string, name: string, bytes: Uint8Array): void {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  chmodSync(folder, 0o700);
  written += 1;
  const temporary = `${folder}/${name}.${process.pid}-${written}.tmp`;
  const fd = openSync(
    temporary,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | OWN_FILE_FLAGS,
    0o600,
  );
  try {
    try {
      for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, `${folder}/${name}`);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {
      // Already renamed or gone.
    }
    throw error;
  }
}
