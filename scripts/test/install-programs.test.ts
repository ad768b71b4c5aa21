import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { buildPlan } from '../build-plan.mjs';

// `pnpm run install-programs`: both programs on the PATH from a clone, until the packages are
// published (issue 34, item 1).

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCRIPT = fileURLToPath(new URL('../install-programs.mjs', import.meta.url));
const version = (folder: string) =>
  (JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8')) as { version: string })
    .version;

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function install(args: readonly string[], path = '/usr/bin:/bin') {
  return spawnSync(process.execPath, [SCRIPT, ...args], {
    encoding: 'utf8',
    env: { ...process.env, PATH: path },
  });
}

// The script builds what is stale; a test may not take that long: run what `pnpm test` built.
const built = ['dsh-stdio-agent', 'dsh-acp'].every((name) =>
  buildPlan(ROOT, name).every((entry) => entry.stale === undefined),
);

describe.skipIf(!built)('pnpm run install-programs', () => {
  it('writes dsh-stdio-agent and dsh-acp into DIR, runnable from any folder by name', () => {
    const root = mkdtempSync(join(tmpdir(), 'dsh-install-programs-'));
    folders.push(root);
    // A folder name a shell would split or unquote.
    const bin = join(root, "bin dir 'quoted' $HOME");
    const project = join(root, 'project');
    mkdirSync(project);
    const first = install(['--', bin]);
    expect(first.status).toBe(0);
    expect(first.stdout).toContain(`${join(bin, 'dsh-acp')}\n`);
    expect(first.stdout).toContain('is not on your PATH');
    // Again, with DIR on the PATH: the scripts it wrote are replaced, and it says so.
    const again = install([bin], `${bin}:/usr/bin:/bin`);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('Both are on your PATH');
    for (const name of ['dsh-stdio-agent', 'dsh-acp']) {
      expect(statSync(join(bin, name)).mode & 0o111).toBe(0o111);
    }
    const env = {
      ...process.env,
      PATH: `${bin}:/usr/bin:/bin`,
      DEEPSEEK_API_KEY: '',
      DSH_API_KEY: '',
    };
    const run = (command: string, args: string[], input = '') =>
      spawnSync(command, args, { cwd: project, env, input, encoding: 'utf8' });
    expect(run('dsh-acp', ['--version']).stdout).toBe(`${version('packages/acp')}\n`);
    expect(run('dsh-stdio-agent', ['--version']).stdout).toBe(
      `${version('packages/stdio-agent')}\n`,
    );
    // Started by name in the person's project, it works there.
    const script = join(root, 'script.json');
    writeFileSync(script, JSON.stringify({ steps: [{ text: 'Hello.' }] }));
    const ran = run('dsh-stdio-agent', ['--script', script, '--no-history'], 'hi\n');
    expect(ran.status).toBe(0);
    expect(ran.stderr).toContain(`Workspace: ${project}\n`);
    expect(ran.stdout).toContain('Hello.');
  });

  it('leaves a file it did not write alone, and installs nothing', () => {
    const bin = mkdtempSync(join(tmpdir(), 'dsh-install-programs-'));
    folders.push(bin);
    writeFileSync(join(bin, 'dsh-acp'), '#!/bin/sh\necho mine\n');
    const refused = install([bin]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('exists and was not written by this script');
    expect(readFileSync(join(bin, 'dsh-acp'), 'utf8')).toBe('#!/bin/sh\necho mine\n');
    expect(() => statSync(join(bin, 'dsh-stdio-agent'))).toThrow();
  });
});
