import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { type DigestedTool, toolDigest } from './tool-digest.js';

/** Where the definitions of tools an "always" pinned are kept, to show what changed later. */
export interface PinnedTools {
  /** The definition kept for `digest`, if one is kept and still hashes to it. */
  read(digest: string): DigestedTool | undefined;
  /** Keeps a tool's definition under its digest. */
  keep(tool: DigestedTool): void;
}

const DIGEST = /^[0-9a-f]{16}$/;
/** A tool's definition is a few kilobytes; anything much larger is not one of ours. */
const LARGEST = 1024 * 1024;
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const NON_BLOCKING = constants.O_NONBLOCK ?? 0;

/** The parts of a tool its digest covers, and nothing else. */
function digested(tool: DigestedTool): DigestedTool {
  return {
    description: tool.description ?? '',
    inputSchema: tool.inputSchema ?? null,
    annotations: tool.annotations ?? null,
  };
}

/**
 * The definitions pinned by "always", one file per digest in `folder` (made readable by its
 * owner only). A file is trusted only when it is a regular file of this user that hashes to the
 * digest it is named by: anything else is as if nothing were kept. Keeping never fails a call:
 * a definition that cannot be written only means the person will not be told what changed.
 */
export function pinnedToolsIn(folder: string): PinnedTools {
  return {
    read(digest) {
      if (!DIGEST.test(digest)) return undefined;
      let fd: number;
      try {
        fd = openSync(
          join(folder, `${digest}.json`),
          constants.O_RDONLY | NO_FOLLOW | NON_BLOCKING,
        );
      } catch {
        return undefined;
      }
      try {
        const stats = fstatSync(fd);
        const user = typeof process.getuid === 'function' ? process.getuid() : undefined;
        if (!stats.isFile() || stats.size > LARGEST || (user !== undefined && stats.uid !== user))
          return undefined;
        const buffer = Buffer.alloc(stats.size);
        let read = 0;
        while (read < buffer.length) {
          const got = readSync(fd, buffer, read, buffer.length - read, read);
          if (got === 0) break;
          read += got;
        }
        const tool = JSON.parse(buffer.toString('utf8', 0, read)) as DigestedTool;
        return toolDigest(tool) === digest ? digested(tool) : undefined;
      } catch {
        return undefined;
      } finally {
        closeSync(fd);
      }
    },
    keep(tool) {
      const digest = toolDigest(tool);
      const temporary = join(folder, `${digest}.${randomBytes(6).toString('hex')}.tmp`);
      try {
        mkdirSync(folder, { recursive: true, mode: 0o700 });
        chmodSync(folder, 0o700);
        const fd = openSync(
          temporary,
          constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW,
          0o600,
        );
        try {
          const bytes = Buffer.from(JSON.stringify(digested(tool)));
          for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset);
        } finally {
          closeSync(fd);
        }
        renameSync(temporary, join(folder, `${digest}.json`));
      } catch {
        try {
          unlinkSync(temporary);
        } catch {
          // Never made.
        }
      }
    },
  };
}
