import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  removeTemporaryStateFolders,
  savedSessionText,
  temporaryStateFolder,
} from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { expectOneLine } from '../support/bin-process.js';
import { runProgram, runProgramIn } from '../support/program-run.js';

// The dsh-stdio-agent program in-process, as its bin runs it; another user's process is the bin's:
// bin-sessions-unsafe.test.ts.
afterEach(removeTemporaryStateFolders);

const ID = '0b5f8a6e-3c1d-4e2f-9a7b-6c5d4e3f2a1b';
const OTHER = '1c6f9b7f-4d2e-4f30-8b8c-7d6e5f4a3b2c';

/** A state folder with its sessions folder, and a project folder to run in. */
function stateWithSessions(): { stateDir: string; sessions: string; cwd: string } {
  const stateDir = temporaryStateFolder();
  const sessions = join(stateDir, 'sessions');
  mkdirSync(sessions, { mode: 0o700 });
  const cwd = mkdtempSync(join(stateDir, 'project-'));
  return { stateDir, sessions, cwd };
}

/** One line on stderr (besides the demo's notice of its scratch folder), no stack trace. */

describe('the terminal program (in-process) with a state folder as someone else left it', () => {
  it('a FIFO named like a session hangs nothing: --sessions lists past it, --resume refuses it', async () => {
    const { stateDir, sessions, cwd } = stateWithSessions();
    execFileSync('mkfifo', [join(sessions, `${ID}.jsonl`)]);
    writeFileSync(join(sessions, `${OTHER}.jsonl`), savedSessionText(OTHER, cwd, 'hello there'), {
      mode: 0o600,
    });
    const args = ['--state-dir', stateDir];

    const listed = await runProgramIn(cwd, [...args, '--sessions']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`${OTHER}  `);
    expect(listed.stderr).toContain('is not a regular file');
    expectOneLine(listed.stderr);

    const resumed = await runProgramIn(cwd, [...args, '--resume', ID]);
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toContain('is not a regular file');
    expectOneLine(resumed.stderr);
  });

  it('a folder named like a session, a state folder others can write, a --state-dir that is a file: one line, status 1', async () => {
    const { stateDir, sessions, cwd } = stateWithSessions();
    mkdirSync(join(sessions, `${ID}.jsonl`));
    const folder = await runProgramIn(cwd, ['--state-dir', stateDir, '--resume', ID]);
    expect(folder.code).toBe(1);
    expectOneLine(folder.stderr);

    chmodSync(sessions, 0o777);
    const open = await runProgramIn(cwd, ['--state-dir', stateDir, '--continue']);
    expect(open.code).toBe(1);
    expect(open.stderr).toContain(`chmod 700 ${sessions}`);
    expectOneLine(open.stderr);

    const file = join(stateDir, 'a-file');
    writeFileSync(file, '');
    for (const flag of ['--sessions', '--continue']) {
      const run = await runProgramIn(cwd, ['--state-dir', file, flag]);
      expect(run.code, flag).toBe(1);
      expect(run.stderr).toContain('is not a folder');
      expectOneLine(run.stderr);
    }
  });

  it('shows a lock holder’s host and the folder name inert', async () => {
    const { stateDir, sessions, cwd } = stateWithSessions();
    writeFileSync(join(sessions, `${ID}.jsonl`), savedSessionText(ID, cwd, 'hello there'), {
      mode: 0o600,
    });
    writeFileSync(
      join(sessions, `${ID}.1.lock`),
      JSON.stringify({ pid: 1, host: 'far\u001b]0;owned\u0007\u001b[2J' }),
      { mode: 0o600 },
    );
    const locked = await runProgramIn(cwd, ['--state-dir', stateDir, '--resume', ID]);
    expect(locked.code).toBe(1);
    expect(locked.stderr).toContain('on far');
    expect(locked.stderr).not.toContain('\u001b');
    expectOneLine(locked.stderr);

    const odd = mkdtempSync(join(stateDir, 'odd\u001b[2J-'));
    const none = await runProgramIn(odd, ['--state-dir', stateDir, '--continue']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('there is no saved conversation in');
    expect(none.stderr).not.toContain('\u001b');
  });
});

/** A small tmpfs in a temporary folder, when this process may mount one (root); else undefined. */
function smallFileSystem():
  | { path: string; remount(options: string): void; done(): void }
  | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const path = mkdtempSync(join(temporaryStateFolder(), 'fs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=700', 'tmpfs', path], {
      stdio: 'ignore',
    });
  } catch {
    return undefined;
  }
  return {
    path,
    remount: (options) => execFileSync('mount', ['-o', `remount,${options}`, path]),
    done: () => execFileSync('umount', [path]),
  };
}

describe('the terminal program (in-process) when the disk refuses', () => {
  it('--resume on a read-only file system, then on a full one: one line, status 1 (a tmpfs, as root)', async ({
    skip,
  }) => {
    const fileSystem = smallFileSystem();
    if (fileSystem === undefined) return skip('mounting a tmpfs needs root');
    try {
      const stateDir = join(fileSystem.path, 'state');
      const sessions = join(stateDir, 'sessions');
      mkdirSync(sessions, { recursive: true, mode: 0o700 });
      chmodSync(stateDir, 0o700);
      const cwd = temporaryStateFolder();
      // Its last line lacks its newline: resuming must write before anything else.
      writeFileSync(
        join(sessions, `${ID}.jsonl`),
        savedSessionText(ID, cwd, 'hello there').slice(0, -1),
        {
          mode: 0o600,
        },
      );

      fileSystem.remount('ro');
      const readOnly = await runProgram(['--state-dir', stateDir, '--resume', ID], '', {}, { cwd });
      expect(readOnly.code).toBe(1);
      expect(readOnly.stderr).toContain('read-only file system');
      expectOneLine(readOnly.stderr);

      fileSystem.remount('rw');
      expect(() =>
        writeFileSync(join(fileSystem.path, 'filler'), Buffer.alloc(1024 * 1024)),
      ).toThrow(/ENOSPC/);
      const full = await runProgram(['--state-dir', stateDir, '--resume', ID], '', {}, { cwd });
      expect(full.code).toBe(1);
      expect(full.stderr).toContain('no space left');
      expectOneLine(full.stderr);
    } finally {
      fileSystem.done();
    }
  });
});
