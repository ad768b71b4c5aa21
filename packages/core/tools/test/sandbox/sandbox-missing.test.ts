import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeSandbox, sandboxStatusLine } from '../../src/index.js';
import { fakeBwrap, makeUp, runner, sandboxTestFolder } from './sandbox-support.js';

const base = sandboxTestFolder('dsh-no-sandbox-');
let count = 0;

/** A PATH with bash and the usual programs, and no bwrap. */
function pathWithoutBwrap(): string {
  const empty = join(base, `empty-bin-${++count}`);
  mkdirSync(empty);
  return [empty, ...(process.env.PATH ?? '').split(':')]
    .filter((folder) => !existsSync(join(folder, 'bwrap')))
    .join(':');
}

describe('without a sandbox', () => {
  it('says bwrap is missing and how to install it; auto runs as before, as the status line says', async () => {
    const status = await probeSandbox({ env: { PATH: pathWithoutBwrap() } });
    expect(status).toMatchObject({ available: false, problem: 'missing' });
    const made = await makeUp(base, `m${count}`);
    const { sandbox, run } = runner(made, status);
    expect(sandboxStatusLine(sandbox)).toMatch(
      /^Sandbox: not available: bwrap is not installed \(not found on PATH\)\. Commands run with your full powers, each asked as before\. Fix: install bubblewrap \(Debian, Ubuntu: apt-get install bubblewrap/,
    );
    const result = await run('touch ran');
    expect(existsSync(join(made.folder, 'ran'))).toBe(true);
    expect(result.description).toEqual({
      kind: 'execute',
      title: 'Run touch ran',
      locations: [{ path: made.workspace.root }],
      command: { command: 'touch ran', cwd: made.workspace.root },
    });
    // The widening arguments mean nothing without a sandbox: it runs as every command does.
    expect((await run('true', { sandbox: 'network' })).description).toMatchObject({
      title: 'Run true',
    });
    // Turned off on purpose: every approval says so.
    const off = runner(made, status, { choice: 'off' });
    expect((await off.run('true')).description).toMatchObject({
      title: 'Run true [NOT sandboxed]',
      command: {
        sandbox: {
          confinement: 'none',
          note: 'Not sandboxed (--sandbox off): it runs with your full powers.',
        },
      },
    });
    expect(sandboxStatusLine(off.sandbox)).toBe(
      'Sandbox: off (--sandbox off): commands run with your full powers.',
    );
    expect(sandboxStatusLine(sandbox, true)).toContain(
      '--permission-mode allow-sandboxed has no effect without the sandbox: every command asks.',
    );
  });

  it('under --sandbox on, refuses every command before anyone is asked, and says why at start', async () => {
    const status = await probeSandbox({ env: { PATH: pathWithoutBwrap() } });
    const made = await makeUp(base, `m${count}`);
    const { sandbox, run } = runner(made, status, { choice: 'on' });
    expect(sandboxStatusLine(sandbox)).toMatch(
      /^Sandbox: required \(--sandbox on\) but not available: bwrap is not installed .* Every command will be refused\./,
    );
    await expect(run('touch ran')).rejects.toMatchObject({ code: 'SANDBOX_UNAVAILABLE' });
    expect(existsSync(join(made.folder, 'ran'))).toBe(false);
  });

  it('says when bwrap cannot create its namespaces, with the fix', async () => {
    const fake = fakeBwrap(base, 'bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted', 1);
    const status = await probeSandbox({ env: { PATH: dirname(fake) } });
    expect(status).toMatchObject({
      available: false,
      problem: 'refused',
      reason:
        'bwrap cannot create its namespaces here (bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted)',
      fix: expect.stringContaining('kernel.apparmor_restrict_unprivileged_userns=0'),
    });
  });

  it('never trusts a bwrap inside the workspace, which a command could have written', async () => {
    const fake = fakeBwrap(base, 'planted', 0);
    expect(await probeSandbox({ env: { PATH: dirname(fake) }, untrusted: base })).toMatchObject({
      available: false,
      problem: 'missing',
    });
  });

  it('says there is no sandbox on another system, and changes nothing there', async () => {
    expect(await probeSandbox({ platform: 'darwin' })).toMatchObject({
      available: false,
      problem: 'platform',
      reason: 'dsh has no sandbox for darwin yet',
    });
  });
});
