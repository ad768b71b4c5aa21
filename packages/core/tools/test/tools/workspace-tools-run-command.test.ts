import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectGone, testFileFolder } from '../support/test-folders.js';
import { callApproved as call, workspaceSetUp } from '../support/workspace-setup.js';

const setUp = workspaceSetUp(testFileFolder('dsh-tools-'));

describe('run_command', () => {
  it('refuses, before anyone is asked, a command no program can be given: a NUL, or too long', async () => {
    const { tool } = await setUp();
    // Described as the loop does, asynchronously: a refusal is a rejected description.
    const describe = async (command: string) =>
      tool('run_command').describe?.(
        { command },
        { signal: new AbortController().signal, toolCallId: 'c' },
      );
    await expect(describe('echo x\u0000; rm -rf y')).rejects.toMatchObject({
      code: 'ARGUMENTS_INVALID',
    });
    // 131,071 bytes is the longest argument Linux passes to bash: it runs.
    const longest = `true #${'é'.repeat(65_532)}x`;
    expect(Buffer.byteLength(longest)).toBe(131_071);
    expect((await call(tool('run_command'), { command: longest })).output).toMatch(
      /^Exit status 0\./,
    );
    await expect(describe(`${longest}x`)).rejects.toMatchObject({ code: 'ARGUMENTS_INVALID' });
  });

  it('runs in the workspace with no input, and reports the exit status', async () => {
    const { tool, workspace } = await setUp({ 'a.txt': 'x' });
    const result = await call(tool('run_command'), {
      command: 'pwd; ls; read line || echo no-input; exit 3',
    });
    expect(result.output).toBe(`Exit status 3.\n${workspace.root}\na.txt\nno-input\n`);
    expect(result).toMatchObject({ details: { exit: { code: 3, signal: null } } });
    expect(result.description).toEqual({
      kind: 'execute',
      title: 'Run pwd; ls; read line || echo no-input; exit 3',
      locations: [{ path: workspace.root }],
      command: { command: 'pwd; ls; read line || echo no-input; exit 3', cwd: workspace.root },
    });
  });

  it('ends a command that never ends at its time limit, with everything it started', async () => {
    const { tool, folder } = await setUp();
    const result = await call(tool('run_command'), {
      command: 'sleep 300 & echo $! > child.pid; sleep 300',
      timeout: 1,
    });
    expect(result.output).toMatch(/^Ended by SIGTERM: it ran longer than its time limit of 1 s\./);
    await expectGone(Number(readFileSync(join(folder, 'child.pid'), 'utf8')));
  });

  it('ends the whole process group when the call is cancelled', async () => {
    const { tool, folder } = await setUp();
    const controller = new AbortController();
    const running = call(
      tool('run_command'),
      { command: 'sleep 300 & echo $! > child.pid; echo started; sleep 300' },
      controller.signal,
    );
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      try {
        if (readFileSync(join(folder, 'child.pid'), 'utf8').trim() !== '') break;
      } catch {}
      await new Promise((resolve) => setImmediate(resolve));
    }
    controller.abort();
    const result = await running;
    expect(result.output).toMatch(/^Ended by SIGTERM: the turn was cancelled\./);
    await expectGone(Number(readFileSync(join(folder, 'child.pid'), 'utf8')));
  });

  it('keeps the start and the end of a flood of output, in bounded memory', async () => {
    const { tool } = await setUp();
    const result = await call(tool('run_command'), {
      command: 'echo FIRST; head -c 50000000 /dev/zero | tr "\\0" x; echo; echo LAST',
    });
    expect(result.output.startsWith('Exit status 0.\nFIRST\n')).toBe(true);
    expect(result.output.trimEnd().endsWith('LAST')).toBe(true);
    expect(result.output).toMatch(/\[… \d+ bytes of output not kept …\]/);
    expect(result.output.length).toBeLessThan(40_000);
  });
});

it('needs a shell on this machine', () => {
  expect(execFileSync('bash', ['-c', 'echo ok']).toString()).toBe('ok\n');
});
