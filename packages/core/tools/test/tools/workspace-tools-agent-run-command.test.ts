import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ToolContext } from 'dsh-agent';
import { describe, expect, it } from 'vitest';
import { expectGone, testFileFolder } from '../support/test-folders.js';
import { workspaceSetUp } from '../support/workspace-setup.js';

const setUp = workspaceSetUp(testFileFolder('dsh-tools-agent-'));

describe('run_command, directly', () => {
  const context = (description: unknown, signal = new AbortController().signal) =>
    ({ description, signal, toolCallId: 'c' }) as unknown as ToolContext;

  it('reports a signal that ended the command as information, not a failure', async () => {
    const { tool } = await setUp();
    const args = { command: 'echo before; kill -KILL $$' };
    const description = await tool('run_command').describe?.(args, {
      signal: new AbortController().signal,
      toolCallId: 'c',
    });
    const result = await tool('run_command').execute(args, context(description));
    expect(result).toMatchObject({
      ok: true,
      output: 'Ended by SIGKILL.\nbefore\n',
      details: { exit: { code: null, signal: 'SIGKILL' } },
    });
  });

  it('reads the output to its end, and does not wait for a process that left its group', async () => {
    const { tool, folder } = await setUp();
    const run = async (command: string) => {
      const args = { command };
      const description = await tool('run_command').describe?.(args, {
        signal: new AbortController().signal,
        toolCallId: 'c',
      });
      return tool('run_command').execute(args, context(description));
    };
    // Up to the pipe's 64 KiB may wait unread when the command exits: the last line is kept.
    for (let round = 0; round < 5; round++) {
      const result = await run("head -c 200000 /dev/zero | tr '\\0' a; echo; echo LAST LINE");
      expect(result.output).toMatch(/LAST LINE\n$/);
    }
    // A process in a session of its own outlives the group's kill and holds the pipes open
    // (the command ends once it has left the group: its marker is written after `setsid`). The
    // result comes while that process still runs: it was not waited for (a runner that waited
    // for the pipes to close would never answer, and the test would time out).
    const result = await run(
      "setsid sh -c 'echo $$ > holder; touch escaped; exec sleep 600' & until [ -e escaped ]; do sleep 0.01; done; echo started",
    );
    const holder = Number(readFileSync(join(folder, 'holder'), 'utf8'));
    try {
      expect(result.output).toContain('started');
      expect(() => process.kill(holder, 0)).not.toThrow();
    } finally {
      process.kill(holder, 'SIGKILL');
    }
  });

  it('runs the approved command, not a different one in the arguments', async () => {
    const { tool, folder } = await setUp();
    const signal = new AbortController().signal;
    const description = await tool('run_command').describe?.(
      { command: 'touch approved' },
      { signal, toolCallId: 'c' },
    );
    await tool('run_command').execute({ command: 'touch other' }, context(description));
    expect(existsSync(join(folder, 'approved'))).toBe(true);
    expect(existsSync(join(folder, 'other'))).toBe(false);
  });

  it('refuses a time limit over 600 seconds, and an empty command', async () => {
    const { tool } = await setUp();
    const info = { signal: new AbortController().signal, toolCallId: 'c' };
    await expect(
      Promise.resolve().then(() =>
        tool('run_command').describe?.({ command: 'true', timeout: 601 }, info),
      ),
    ).rejects.toMatchObject({ code: 'ARGUMENTS_INVALID' });
    await expect(
      Promise.resolve().then(() => tool('run_command').describe?.({ command: '  ' }, info)),
    ).rejects.toMatchObject({ code: 'ARGUMENTS_INVALID' });
  });

  it('ends the process groups still running when the program exits', async () => {
    const { folder } = await setUp();
    // The built package (`pnpm build` first), run by plain Node as a program would.
    const script = join(folder, 'exits.mjs');
    const index = pathToFileURL(join(import.meta.dirname, '../../dist/index.js')).href;
    writeFileSync(
      script,
      `import { createWorkspaceTools, openWorkspace } from ${JSON.stringify(index)};
const workspace = await openWorkspace(${JSON.stringify(folder)});
const tool = createWorkspaceTools({ workspace }).find((t) => t.name === 'run_command');
const args = { command: 'sleep 300 & echo $! > child.pid; sleep 300' };
const signal = new AbortController().signal;
const description = await tool.describe(args, { signal, toolCallId: 'c' });
void tool.execute(args, { description, signal, toolCallId: 'c' });
const wait = () => new Promise((resolve) => setImmediate(resolve));
const fs = await import('node:fs');
while (!(fs.existsSync('child.pid') && fs.readFileSync('child.pid', 'utf8').trim() !== '')) await wait();
process.exit(0);
`,
    );
    const child = spawn(process.execPath, [script], {
      cwd: folder,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(errors).toBe('');
    expect(code).toBe(0);
    await expectGone(Number(readFileSync(join(folder, 'child.pid'), 'utf8')), { timeout: 10_000 });
  });
});

it('has bash and sleep on this machine', () => {
  expect(execFileSync('bash', ['-c', 'command -v sleep >/dev/null && echo ok']).toString()).toBe(
    'ok\n',
  );
});
