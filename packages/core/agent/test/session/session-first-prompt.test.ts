// A prompt the agent acted on is never lost to a kill, even in the first moments of a new
// session, while its file is still being prepared: the model is asked once the prompt is written.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openSessionStore } from '../../src/session/session-store.js';
import { stateFolder } from '../support/session-files.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/first-prompt-kill.ts', import.meta.url));
const PACKAGE = fileURLToPath(new URL('../..', import.meta.url));

function killedRun(dir: string): Promise<{ id: string; signal: string | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=dsh-source', '--import', 'tsx', FIXTURE, dir],
      { cwd: PACKAGE, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) => resolve({ id: out.trim(), signal }));
  });
}

describe('a kill -9 in the first moments of a new session', () => {
  it('never loses a prompt the agent acted on', async () => {
    const dir = stateFolder();
    const { id, signal } = await killedRun(dir);
    expect(signal).toBe('SIGKILL');
    const store = openSessionStore({ dir });
    const session = await store.open(id);
    expect(session.entries).toEqual([
      { type: 'prompt', text: 'Do not lose me' },
      { type: 'turn-end', reason: 'cancelled', interrupted: true },
    ]);
    await session.close();
  }, 20_000);
});
