import { execFile } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { removeTemporaryStateFolders, temporaryStateFolder } from 'dsh-agent/testing';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, BIN, expectOneLine } from '../support/bin-process.js';

beforeAll(assertBuilt);
afterEach(removeTemporaryStateFolders);

// A process of another user is the bin's; the rest runs in-process: program-sessions-unsafe.test.ts.

/** One line on stderr (besides the demo's notice of its scratch folder), no stack trace. */

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs the bin as the user `uid` (root may), to its end. */
function runBinAs(
  uid: number,
  args: readonly string[],
  cwd: string,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      { uid, gid: uid, cwd, env: { ...process.env, HOME: cwd }, encoding: 'utf8' },
      (_error, _stdout, stderr) => resolve({ code: child.exitCode, stderr }),
    );
    child.stdin?.end();
  });
}

describe('the terminal program when the disk refuses', () => {
  // Root reads a chmod 000 folder all the same: the program runs as another user instead.
  it.skipIf(!isRoot)(
    '--sessions and --continue on a sessions folder the user may not read: one line, status 1 (as root: another uid)',
    async ({ skip }) => {
      const user = 12345;
      const top = temporaryStateFolder();
      chmodSync(top, 0o755);
      // The other user must be able to run the program at all: a clone in a folder only root
      // may enter (as `mktemp -d` makes) cannot be tested this way.
      const probe = await runBinAs(user, ['--version'], top);
      if (probe.code !== 0) return skip('the repository cannot be read by another user here');
      chmodSync(top, 0o755);
      const stateDir = join(top, 'state');
      const sessions = join(stateDir, 'sessions');
      mkdirSync(sessions, { recursive: true });
      chownSync(stateDir, user, user);
      chownSync(sessions, user, user);
      chmodSync(stateDir, 0o700);
      chmodSync(sessions, 0o000);
      for (const flag of ['--sessions', '--continue']) {
        const run = await runBinAs(user, ['--state-dir', stateDir, flag], top);
        expect(run.code, flag).toBe(1);
        expect(run.stderr).toContain(
          `dsh-stdio-agent: Cannot read the saved sessions in ${sessions} (permission denied, EACCES).\n`,
        );
        expectOneLine(run.stderr);
      }
    },
  );
});
