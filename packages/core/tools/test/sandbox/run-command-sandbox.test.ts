import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { probeSandbox, type SandboxStatus } from '../../src/index.js';
import { fakeBwrap, makeUp, processesWith, runner, sandboxTestFolder } from './sandbox-support.js';

const base = sandboxTestFolder('dsh-sandbox-');
const status: SandboxStatus = await probeSandbox();
let count = 0;

async function sandboxed() {
  const made = await makeUp(base, `s${++count}`);
  return { ...made, ...runner(made, status) };
}

// .ci/run and scripts/setup.sh install bubblewrap; where it cannot run, see sandbox-missing.test.ts.
describe.skipIf(!status.available)('a sandboxed command', () => {
  it('writes the workspace and a private /tmp, and nothing else', async () => {
    const { run, folder, root } = await sandboxed();
    const result = await run(
      `echo in > inside.txt; echo tmp > /tmp/private-${count}; cat /tmp/private-${count}; echo out > ${root}/outside.txt`,
    );
    expect(result.output).toContain('Read-only file system');
    expect(readFileSync(join(folder, 'inside.txt'), 'utf8')).toBe('in\n');
    expect(result.output).toContain('tmp\n');
    expect(existsSync(join(root, 'outside.txt'))).toBe(false);
    expect(existsSync(`/tmp/private-${count}`)).toBe(false);
    // The model and the person are told what was blocked, and how to ask for more.
    expect(result.output).toContain(
      '[sandbox] This command ran in the sandbox, which blocked a write outside the workspace',
    );
    expect(result.output).toContain('sandbox: "none"');
    expect(result.description).toMatchObject({
      title: expect.stringMatching(/^Run echo in > inside\.txt;[^[]*$/),
      command: {
        sandbox: { confinement: 'sandboxed', note: expect.stringMatching(/^Sandboxed: /) },
      },
    });
  });

  it('can neither read nor write ~/.ssh or the state folder, and reads the rest of home', async () => {
    const { run, home, state } = await sandboxed();
    const result = await run(
      [
        `cat ${home}/.ssh/id_rsa || echo no-key`,
        `echo x > ${home}/.ssh/planted || echo no-plant`,
        `cat ${state}/rules.json || echo no-rules`,
        `echo '{"allow":["run_command"]}' > ${state}/rules.json || echo no-rewrite`,
        `cat ${home}/notes.txt`,
      ].join('; '),
    );
    expect(result.output).not.toContain('PRIVATE KEY');
    expect(result.output).toContain('no-key');
    expect(result.output).toContain('no-plant');
    expect(result.output).toContain('no-rules');
    expect(result.output).toContain('no-rewrite');
    expect(result.output).toContain('readable notes');
    expect(readFileSync(join(state, 'rules.json'), 'utf8')).toBe('{"allow":[]}');
    expect(existsSync(join(home, '.ssh', 'planted'))).toBe(false);
  });

  it('keeps .git/hooks, .git/config and shell start-up files read-only inside the workspace', async () => {
    const { run, folder } = await sandboxed();
    const result = await run(
      'echo evil > .git/hooks/pre-commit || echo no-hook; echo "[core] hooksPath=/x" >> .git/config || echo no-config; echo evil >> .bashrc || echo no-rc; echo fine > src.txt',
    );
    expect(result.output).toContain('no-hook');
    expect(result.output).toContain('no-config');
    expect(result.output).toContain('no-rc');
    expect(existsSync(join(folder, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(readFileSync(join(folder, '.git', 'config'), 'utf8')).toBe('[core]\n');
    expect(readFileSync(join(folder, '.bashrc'), 'utf8')).toBe('# start-up\n');
    expect(readFileSync(join(folder, 'src.txt'), 'utf8')).toBe('fine\n');
  });

  it('has no network: a loopback server outside is unreachable, unless the network is given', async () => {
    const { run } = await sandboxed();
    let connections = 0;
    const server = createServer((socket) => {
      connections++;
      socket.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const blocked = await run(`echo hi > /dev/tcp/127.0.0.1/${port} && echo connected`);
      expect(blocked.output).not.toContain('connected');
      expect(connections).toBe(0);
      // The same command with the network reaches it: the check above can fail.
      const open = await run(`echo hi > /dev/tcp/127.0.0.1/${port} && echo connected`, {
        sandbox: 'network',
      });
      expect(open.output).toContain('connected');
      await vi.waitFor(() => expect(connections).toBe(1));
      expect(open.description).toMatchObject({
        title: expect.stringMatching(/ \[sandbox \+ network\]$/),
        command: { sandbox: { confinement: 'network' } },
      });
    } finally {
      server.close();
    }
  });

  it('ends what the command left behind, even a setsid grandchild', async () => {
    const { run } = await sandboxed();
    const token = `4${count}07.${process.pid}`;
    // It waits until the grandchild is in its own session: the command does not end first.
    const escaping = (id: string, ready: string) =>
      `(setsid nohup sh -c 'echo > ${ready}; exec sleep ${id}' > /dev/null 2>&1 &); while [ ! -e ${ready} ]; do :; done; echo started`;
    const result = await run(escaping(token, 'ready-in'));
    expect(result.output).toContain('started');
    await vi.waitFor(() => expect(processesWith(token)).toEqual([]));
    // Outside the sandbox the same grandchild survives the command: the check above can fail.
    const outside = `5${count}07.${process.pid}`;
    await run(escaping(outside, 'ready-out'), { sandbox: 'none' });
    await vi.waitFor(() => expect(processesWith(outside)).toHaveLength(1));
    for (const pid of processesWith(outside)) process.kill(pid, 'SIGKILL');
  });

  it('hides what the person adds (--sandbox-hide), a folder or a file, from ~ or absolute', async () => {
    const made = await makeUp(base, `s${++count}`);
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(join(made.home, 'private'));
    writeFileSync(join(made.home, 'private', 'diary'), 'DEAR DIARY');
    writeFileSync(join(made.root, 'token'), 'TOKEN');
    const { run } = runner(made, status, { hide: ['~/private', join(made.root, 'token')] });
    const result = await run(
      `cat ~/private/diary ${made.home}/private/diary ${made.root}/token; cat ${made.home}/notes.txt`,
    );
    expect(result.output).not.toContain('DEAR DIARY');
    expect(result.output).not.toContain('TOKEN');
    expect(result.output).toContain('readable notes');
  });

  it('ends everything at the time limit, inside its own PID namespace', async () => {
    const { run } = await sandboxed();
    const token = `3${count}71.${process.pid}`;
    const result = await run(`sleep ${token} & sleep ${token}`, { timeout: 1 });
    expect(result.output).toMatch(/^Ended by SIGTERM: it ran longer than its time limit of 1 s\./);
    await vi.waitFor(() => expect(processesWith(token)).toEqual([]));
  });

  it('says a failure to start the sandbox: never a silent exit status', async () => {
    const made = await makeUp(base, `s${++count}`);
    const broken = fakeBwrap(
      made.root,
      'bwrap: Creating new namespace failed: Operation not permitted',
      1,
    );
    const { run } = runner(made, { available: true, bwrap: broken });
    await expect(run('touch ran')).rejects.toMatchObject({
      code: 'SANDBOX_FAILED',
      message: expect.stringContaining('Creating new namespace failed'),
    });
    expect(existsSync(join(made.folder, 'ran'))).toBe(false);
  });
});

describe('leaving the sandbox', () => {
  it('runs with the person’s powers only for sandbox "none", which says so', async () => {
    const made = await makeUp(base, `s${++count}`);
    const { run } = runner(made, status);
    const result = await run(`echo out > ${made.root}/outside.txt`, { sandbox: 'none' });
    expect(result.output).toBe('Exit status 0.\n(no output)');
    expect(readFileSync(join(made.root, 'outside.txt'), 'utf8')).toBe('out\n');
    expect(result.description).toMatchObject({
      command: { sandbox: { confinement: 'none' } },
      title: expect.stringMatching(/ \[NOT sandboxed\]$/),
    });
  });

  it('refuses a widening it does not know', async () => {
    const made = await makeUp(base, `s${++count}`);
    const { run } = runner(made, status);
    await expect(run('true', { sandbox: 'all' })).rejects.toMatchObject({
      code: 'ARGUMENTS_INVALID',
    });
  });
});
