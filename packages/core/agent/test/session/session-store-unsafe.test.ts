import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSessionError } from '../../src/session/session-error.js';
import { lockSession } from '../../src/session/session-lock.js';
import { openSessionStore } from '../../src/session/session-store.js';
import { sessionPath, stateFolder } from '../support/session-files.js';

const ID = '0b5f8a6e-3c1d-4e2f-9a7b-6c5d4e3f2a1b';
const OTHER = '1c6f9b7f-4d2e-4f30-8b8c-7d6e5f4a3b2c';
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function header(id: string, cwd = '/w'): string {
  return `${JSON.stringify({ v: 1, type: 'session', id, cwd, createdAt: '2026-01-01T00:00:00.000Z', title: 'hi' })}\n`;
}
const PROMPT = '{"v":1,"type":"prompt","text":"hi"}\n';

/** A state folder with its sessions folder, as the store makes them. */
function folders(): { dir: string; sessions: string } {
  const dir = stateFolder();
  const sessions = join(dir, 'sessions');
  mkdirSync(sessions, { mode: 0o700 });
  return { dir, sessions };
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('the session store trusts nothing it finds in the state folder', () => {
  it('lists past a FIFO named like a session, and refuses to open one, without waiting', async () => {
    const { dir, sessions } = folders();
    execFileSync('mkfifo', [join(sessions, `${ID}.jsonl`)]);
    writeFileSync(join(sessions, `${OTHER}.jsonl`), header(OTHER) + PROMPT, { mode: 0o600 });
    const store = openSessionStore({ dir });
    const skipped: string[] = [];
    // Before the fix, open() of the FIFO waited for a writer forever: the test timed out.
    expect(
      (await store.list({ onSkipped: (line) => skipped.push(line) })).map((s) => s.id),
    ).toEqual([OTHER]);
    expect(skipped).toEqual([expect.stringContaining('is not a regular file')]);
    const error = await failure(store.open(ID));
    expect(isSessionError(error, 'SESSION_UNSAFE'), String(error)).toBe(true);
    expect(error.message).toContain('is not a regular file');
    // Refused: no lock left behind.
    expect(readdirSync(sessions).sort()).toEqual([`${ID}.jsonl`, `${OTHER}.jsonl`].sort());
  });

  it('reads a FIFO lock file as no lock, without waiting', async () => {
    const { dir, sessions } = folders();
    writeFileSync(join(sessions, `${ID}.jsonl`), header(ID) + PROMPT, { mode: 0o600 });
    execFileSync('mkfifo', [join(sessions, `${ID}.1.lock`)]);
    const session = await openSessionStore({ dir }).open(ID);
    expect(session.entries[0]).toEqual({ type: 'prompt', text: 'hi' });
    // The FIFO held no holder: it was replaced by the next generation, removed at close.
    expect(readdirSync(sessions).sort()).toEqual([`${ID}.2.lock`, `${ID}.jsonl`]);
    await session.close();
    expect(readdirSync(sessions)).toEqual([`${ID}.jsonl`]);
  });

  it('refuses a folder named like a session file with a code', async () => {
    const { dir, sessions } = folders();
    mkdirSync(join(sessions, `${ID}.jsonl`));
    const store = openSessionStore({ dir });
    expect(await store.list()).toEqual([]);
    const error = await failure(store.open(ID));
    expect(isSessionError(error, 'SESSION_UNSAFE'), String(error)).toBe(true);
  });

  it('never deletes a complete last line it does not understand: a newer format, a wrong type', async () => {
    const { dir } = folders();
    const store = openSessionStore({ dir });
    const path = sessionPath(dir, ID);
    const cases: [string, RegExp][] = [
      [
        '{"v":2,"type":"prompt","text":"from the future"}\n',
        /line 3: .*newer version of dsh.*Update dsh/,
      ],
      ['{"v":1,"type":"prompt","text":7}\n', /line 3: prompt\.text must be a string/],
      ['{"v":2,"type":"prompt","text":"no newline yet"}', /line 3: .*newer version of dsh/],
    ];
    for (const [last, message] of cases) {
      const content = header(ID) + PROMPT + last;
      writeFileSync(path, content, { mode: 0o600 });
      const error = await failure(store.open(ID));
      expect(isSessionError(error, 'SESSION_INVALID'), String(error)).toBe(true);
      expect(error.message).toMatch(message);
      expect(error.message).toContain(path);
      expect(readFileSync(path, 'utf8')).toBe(content);
    }
  });

  it('refuses a session file that is a symbolic link, and never writes to its target', async () => {
    const { dir, sessions } = folders();
    const outside = join(stateFolder(), 'target.jsonl');
    const content = `${header(ID)}{"v":1,"type":"prompt","te`;
    writeFileSync(outside, content);
    symlinkSync(outside, join(sessions, `${ID}.jsonl`));
    const store = openSessionStore({ dir });
    const skipped: string[] = [];
    expect(await store.list({ onSkipped: (line) => skipped.push(line) })).toEqual([]);
    expect(skipped).toEqual([expect.stringContaining('is a symbolic link')]);
    const error = await failure(store.open(ID));
    expect(isSessionError(error, 'SESSION_UNSAFE'), String(error)).toBe(true);
    expect(error.message).toContain('is a symbolic link');
    expect(readFileSync(outside, 'utf8')).toBe(content);
  });

  it('refuses a state or sessions folder others can write, naming it and the fix', async () => {
    for (const which of ['state', 'sessions'] as const) {
      const { dir, sessions } = folders();
      writeFileSync(join(sessions, `${ID}.jsonl`), header(ID) + PROMPT, { mode: 0o600 });
      const folder = which === 'state' ? dir : sessions;
      chmodSync(folder, 0o777);
      const store = openSessionStore({ dir });
      for (const attempt of [store.list(), store.open(ID)]) {
        const error = await failure(attempt);
        expect(isSessionError(error, 'SESSION_UNSAFE'), String(error)).toBe(true);
        expect(error.message).toContain(`chmod 700 ${folder}`);
        expect(error.message).not.toContain('\n');
      }
      // A new session refuses to save there too, and says why at its first flush.
      const fresh = store.create({ cwd: '/w' });
      fresh.recorder.add({ type: 'prompt', text: 'hi' });
      const saved = await failure(fresh.recorder.flush());
      expect(isSessionError(saved, 'SESSION_UNSAFE'), String(saved)).toBe(true);
      expect(existsSync(sessionPath(dir, fresh.id))).toBe(false);
      await fresh.close();
    }
  });

  it.skipIf(!isRoot)(
    'skips and refuses a session file of another user (as root: chown)',
    async () => {
      const { dir, sessions } = folders();
      const path = join(sessions, `${ID}.jsonl`);
      writeFileSync(path, header(ID) + PROMPT, { mode: 0o644 });
      chownSync(path, 12345, 12345);
      const store = openSessionStore({ dir });
      const skipped: string[] = [];
      expect(await store.list({ onSkipped: (line) => skipped.push(line) })).toEqual([]);
      expect(skipped).toEqual([expect.stringContaining('belongs to another user (uid 12345)')]);
      const error = await failure(store.open(ID));
      expect(isSessionError(error, 'SESSION_UNSAFE'), String(error)).toBe(true);
    },
  );

  it('keeps lock generations in range whatever is found: a planted last generation is refused', async () => {
    const { sessions } = folders();
    writeFileSync(join(sessions, `${ID}.999999999999999.lock`), 'garbage');
    const first = (() => {
      try {
        return lockSession(sessions, ID);
      } catch (error) {
        return error as Error;
      }
    })();
    expect(isSessionError(first, 'SESSION_LOCKED'), String(first)).toBe(true);
    expect((first as Error).message).toContain(`${ID}.*.lock`);
    // Nothing out of range was made: before the fix a 16-digit generation appeared, which
    // the lock pattern no longer saw, and a second writer took the session too.
    expect(readdirSync(sessions)).toEqual([`${ID}.999999999999999.lock`]);
  });

  it('shows what it read from a file inert: a lock holder’s host, a path', async () => {
    const { sessions } = folders();
    writeFileSync(
      join(sessions, `${ID}.1.lock`),
      JSON.stringify({ pid: process.pid, host: 'evil\u001b]0;pwned\u0007\u001b[2J\u009b31m' }),
      { mode: 0o600 },
    );
    const error = (() => {
      try {
        lockSession(sessions, ID);
      } catch (caught) {
        return caught as Error;
      }
      throw new Error('expected SESSION_LOCKED');
    })();
    expect(isSessionError(error, 'SESSION_LOCKED')).toBe(true);
    expect(error.message).toContain('on evil\\u001b]0;pwned\\u0007\\u001b[2J\\u009b31m');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters.
    expect(error.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);

    const odd = join(stateFolder(), 'state\u001b[2Jdir');
    const store = openSessionStore({ dir: odd });
    mkdirSync(join(odd, 'sessions'), { recursive: true, mode: 0o700 });
    chmodSync(odd, 0o700);
    writeFileSync(sessionPath(odd, ID), `${header(ID)}{"v":1,"type":"prompt","text":7}\n`, {
      mode: 0o600,
    });
    const invalid = await failure(store.open(ID));
    expect(invalid.message).toContain('state\\u001b[2Jdir');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters.
    expect(invalid.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it('turns a state folder that is a file into one coded line', async () => {
    const file = join(stateFolder(), 'not-a-folder');
    writeFileSync(file, '');
    const store = openSessionStore({ dir: file });
    for (const attempt of [store.list(), store.open(ID)]) {
      const error = await failure(attempt);
      expect(isSessionError(error), String(error)).toBe(true);
      expect(error.message).toContain('is not a folder');
    }
  });
});
