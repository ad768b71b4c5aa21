import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { join } from 'node:path';
import {
  OWN_FILE_FLAGS,
  ownFileProblem,
  readOpenFile,
  writePrivateFile,
} from 'dsh-user-interaction/host';
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
        fd = openSync(join(folder, `${digest}.json`), constants.O_RDONLY | OWN_FILE_FLAGS);
      } catch {
        return undefined;
      }
      try {
        const stats = fstatSync(fd);
        if (ownFileProblem(stats) !== undefined || stats.size > LARGEST) return undefined;
        const tool = JSON.parse(readOpenFile(fd, stats.size).toString('utf8')) as DigestedTool;
        return toolDigest(tool) === digest ? digested(tool) : undefined;
      } catch {
        return undefined;
      } finally {
        closeSync(fd);
      }
    },
    keep(tool) {
      const bytes = Buffer.from(JSON.stringify(digested(tool)));
      try {
        writePrivateFile(folder, `${toolDigest(tool)}.json`, bytes);
      } catch {
        // Not kept: the person will not be told what changed, and the call goes on.
      }
    },
  };
}
