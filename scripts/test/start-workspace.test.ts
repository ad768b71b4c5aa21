import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// `pnpm start` on a workspace of its own (copies of the scripts): it builds a changed source
// before it starts the agent, skips the build when nothing changed, and runs the agent in its
// own process when nothing forwards a Ctrl+C (scripts/start-command.mjs, agentInProcess).

const SCRIPTS = fileURLToPath(new URL('..', import.meta.url));
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

const PAST = 1_700_000_000;

function write(root: string, path: string, text: string, time = PAST): void {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  utimesSync(file, time, time);
}

/** A workspace whose `dsh-stdio-agent` build copies its source to dist/ and notes that it ran. */
function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'dsh-start-'));
  roots.push(root);
  write(root, 'pnpm-workspace.yaml', 'packages:\n  - packages/*\n');
  write(root, 'package.json', JSON.stringify({ name: 'root', private: true }));
  for (const name of ['start.mjs', 'build-changed.mjs', 'build-plan.mjs', 'start-command.mjs']) {
    write(root, `scripts/${name}`, readFileSync(join(SCRIPTS, name), 'utf8'));
  }
  const build =
    "node -e \"const f=require('fs');f.mkdirSync('dist',{recursive:true});f.copyFileSync('src/bin.mjs','dist/bin.js');f.appendFileSync('../../built.txt','built\\n')\"";
  write(
    root,
    'packages/agent/package.json',
    JSON.stringify({
      name: 'dsh-stdio-agent',
      type: 'module',
      scripts: { build },
      bin: { 'dsh-stdio-agent': './dist/bin.js' },
    }),
  );
  // The agent says which process runs it, and with which flags.
  write(
    root,
    'packages/agent/src/bin.mjs',
    'console.log(JSON.stringify({ pid: process.pid, argv: process.argv.slice(2), version: 1 }));\n',
  );
  return root;
}

function start(root: string, env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(process.execPath, [join(root, 'scripts/start.mjs'), '--', '--flag'], {
    cwd: root,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, ...env },
  });
  let built = 0;
  try {
    built = readFileSync(join(root, 'built.txt'), 'utf8').split('\n').filter(Boolean).length;
  } catch {}
  rmSync(join(root, 'built.txt'), { force: true });
  const ran = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as {
    pid: number;
    argv: string[];
    version: number;
  };
  return { status: result.status, stderr: result.stderr, built, ran, pid: result.pid };
}

describe('pnpm start on a workspace of its own', () => {
  it('builds a changed source before the agent starts, and nothing when nothing changed', () => {
    const root = workspace();
    const first = start(root);
    expect(first.built).toBe(1);
    expect(first.stderr).toContain('Building dsh-stdio-agent (never built)');
    expect(first.ran).toMatchObject({ argv: ['--flag'], version: 1 });

    const again = start(root);
    expect(again).toMatchObject({ status: 0, stderr: '', built: 0 });
    expect(again.ran.version).toBe(1);

    // An edit in place (a newer time, the folder's unchanged) is seen, and the new code runs.
    write(
      root,
      'packages/agent/src/bin.mjs',
      'console.log(JSON.stringify({ pid: process.pid, argv: process.argv.slice(2), version: 2 }));\n',
      Date.now() / 1000 + 10,
    );
    const edited = start(root);
    expect(edited.built).toBe(1);
    expect(edited.stderr).toContain('dsh-stdio-agent (packages/agent/src/bin.mjs changed)');
    expect(edited.ran.version).toBe(2);
  });

  it('runs the agent in its own process, unless what started it forwards a Ctrl+C', () => {
    const root = workspace();
    expect(start(root).built).toBe(1);
    // Run directly, or by pnpm 12: one process.
    const direct = start(root);
    expect(direct.ran.pid).toBe(direct.pid);
    const pnpm = start(root, {
      npm_lifecycle_event: 'start',
      npm_config_user_agent: 'pnpm/12.4.2 npm/? node/? linux x64',
      npm_execpath: '/usr/lib/node_modules/pnpm/pnpm',
    });
    expect(pnpm.ran.pid).toBe(pnpm.pid);
    // npm forwards SIGINT: the agent is a child that alone takes the terminal's.
    const npm = start(root, {
      npm_lifecycle_event: 'start',
      npm_config_user_agent: 'npm/10.8.2 node/v20',
      npm_execpath: '/usr/lib/npm/bin/npm-cli.js',
    });
    expect(npm.status).toBe(0);
    expect(npm.ran.argv).toEqual(['--flag']);
    expect(npm.ran.pid).not.toBe(npm.pid);
  });
});
