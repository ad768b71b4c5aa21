import { utimesSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { openSessionStore } from 'dsh-agent';
import { type AgentRunCommand, parseAgentCommandLine } from 'dsh-agent/command-line';
import {
  removeTemporaryStateFolders,
  sessionFilePath,
  temporaryStateFolder,
} from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseSession } from '../../src/terminal-agent/terminal-session.js';
import { earlierRun } from '../support/earlier-run.js';

afterEach(removeTemporaryStateFolders);

/** A run command with no flag but `flags` and `values`, as the command line reads it. */
function command(flags: string[] = [], values: [string, string][] = []): AgentRunCommand {
  const parsed = parseAgentCommandLine([]);
  if (parsed.kind !== 'run') throw new Error('an empty command line is a run');
  return { ...parsed, flags: new Set(flags), values: new Map(values) };
}

describe('the session flags', () => {
  it('--continue opens the newest session of the folder; --sessions lists them; neither with --no-history', async () => {
    const store = openSessionStore({ dir: temporaryStateFolder() });
    const older = await earlierRun(store, '/a', { steps: [{ text: 'Ok.' }] }, [
      { prompt: 'older' },
    ]);
    const newer = await earlierRun(store, '/a', { steps: [{ text: 'Ok.' }] }, [
      { prompt: 'newer' },
    ]);
    await earlierRun(store, '/b', { steps: [{ text: 'Ok.' }] }, [{ prompt: 'elsewhere' }]);
    // The older one was last active a minute earlier (file times can be coarse).
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(sessionFilePath(store.dir, older), minuteAgo, minuteAgo);
    const said: string[] = [];
    const stdout = new PassThrough();
    let printed = '';
    stdout.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
    });
    const context = {
      say: (line: string) => void said.push(line),
      stdout,
      cwd: '/a',
      usageHint: '(try it --help)',
    };

    const continued = await chooseSession(command(['continue']), store, context);
    expect(continued.kind === 'run' && continued.session?.id).toBe(newer);
    if (continued.kind === 'run') await continued.session?.close();

    expect(await chooseSession(command(['sessions']), store, context)).toEqual({
      kind: 'exit',
      code: 0,
    });
    const lines = printed.split('\n');
    expect(lines.slice(0, 2).map((line) => line.split('  ')[0])).toEqual([newer, older]);
    expect(lines[0]).toMatch(/ {2}newer$/);
    expect(printed).not.toContain('elsewhere');

    const fresh = await chooseSession(command(), store, context);
    expect(fresh.kind === 'run' && fresh.session?.entries).toEqual([]);
    // Closed before its folder is removed: a new session's file is still being made meanwhile.
    if (fresh.kind === 'run') await fresh.session?.close();
    expect(await chooseSession(command(['continue']), undefined, context)).toEqual({
      kind: 'exit',
      code: 2,
    });
    expect(said).toEqual([
      '--continue needs the saved conversations: leave out --no-history (try it --help)',
    ]);
    expect(await chooseSession(command(), undefined, context)).toEqual({
      kind: 'run',
      session: undefined,
    });
  });
});
