// A usage error found once the session was chosen (a flag checked after it, the project's
// .mcp.json refused) ends the program with nothing of the session left behind: a new session's
// empty file and lock are removed, a resumed session's lock is given back.
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { removeWorkFolders, workFolder, writeScriptFile } from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { runBin } from '../support/bin-process.js';

afterEach(removeWorkFolders);

function setUp() {
  const root = workFolder('dsh-usage-session-');
  const workspace = join(root, 'project');
  const state = join(root, 'state');
  mkdirSync(workspace);
  const script = writeScriptFile(root, { steps: [{ text: 'Hello.' }] });
  const run = (flags: readonly string[], input = '') =>
    runBin(['--script', script, '--workspace', workspace, '--state-dir', state, ...flags], input);
  const sessionFiles = (): string[] => {
    try {
      return readdirSync(join(state, 'sessions')).sort();
    } catch {
      return [];
    }
  };
  return { run, sessionFiles };
}

const USAGE_ERRORS: readonly (readonly [string, readonly string[], string])[] = [
  ['--notify with an unknown mode', ['--notify', 'bogus'], '--notify takes'],
  ['a blank --notify-command', ['--notify-command', ' '], '--notify-command needs a command'],
  ['--project-mcp that is no digest', ['--project-mcp', 'zz'], '--project-mcp needs the SHA-256'],
  ['--mcp-config naming no file', ['--mcp-config', 'missing.json'], '--mcp-config: cannot read'],
];

describe('dsh-stdio-agent stopped by a usage error after choosing its session', () => {
  it.each(USAGE_ERRORS)('leaves no new session behind: %s', async (_name, flags, said) => {
    const { run, sessionFiles } = setUp();
    const { code, stderr } = await run(flags);
    expect(stderr).toContain(said);
    expect(code).toBe(2);
    expect(sessionFiles()).toEqual([]);
  });

  it.each(USAGE_ERRORS)('gives a resumed session its lock back: %s', async (_name, flags, said) => {
    const { run, sessionFiles } = setUp();
    expect((await run([], 'hi\n')).code).toBe(0);
    const saved = sessionFiles();
    expect(saved).toHaveLength(1);
    const id = (saved[0] as string).replace(/\.jsonl$/, '');
    const { code, stderr } = await run(['--resume', id, ...flags]);
    expect(stderr).toContain(said);
    expect(code).toBe(2);
    expect(sessionFiles()).toEqual(saved);
  });
});
