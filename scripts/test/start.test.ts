import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../build-plan.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const START = fileURLToPath(new URL('../start.mjs', import.meta.url));

/** Runs the start script as `pnpm start` runs it, with `input` piped in. */
function start(args: readonly string[], input = '') {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    npm_lifecycle_event: 'start',
    npm_config_user_agent: 'pnpm/12.4.2 npm/? node/v20.19.0 linux x64',
    DEEPSEEK_API_KEY: '',
    DSH_API_KEY: '',
  };
  delete env.DSH_COMMAND;
  const child = spawn(process.execPath, [START, ...args], { cwd: ROOT, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdin.end(input);
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

// Run what `pnpm test` built: with sources changed since, the script would build first, which
// is right but takes longer than a test may.
const built = buildPlan(ROOT, 'dsh-stdio-agent').every((entry) => entry.stale === undefined);

describe.skipIf(!built)('pnpm start, when everything is built', () => {
  it('starts the agent at once, with the flags after --, on piped input', async () => {
    const { code, stdout, stderr } = await start(['--', '--no-color'], 'hello\n1\n');
    expect(code).toBe(0);
    expect(stderr).not.toContain('Building');
    expect(stdout).toContain('> hello\nHi! I am the dsh demo agent.');
    expect(stdout).toContain('✔ Language · TypeScript');
    // Saved in the test run's own state folder (vitest.config.ts), not the person's.
    const stateHome = process.env.XDG_STATE_HOME ?? '';
    expect(stateHome).toMatch(/dsh-test-run-[^/]+\/state$/);
    expect(stateHome).toBe(join(dirname(tmpdir()), 'state'));
    const saved = readdirSync(join(stateHome, 'dsh', 'sessions')).map((name) =>
      readFileSync(join(stateHome, 'dsh', 'sessions', name), 'utf8'),
    );
    expect(saved.some((file) => file.includes(`"cwd":${JSON.stringify(resolve(ROOT))}`))).toBe(
      true,
    );
  });

  it('names itself as typed: in the help, and in the hint of a usage error', async () => {
    const help = await start(['--', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: pnpm start -- \[options\]\n/);
    expect(help.stdout).toContain("printf 'hello\\n1\\nmy-app\\n' | pnpm start\n");
    expect(await start(['--nope'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'dsh-stdio-agent: unknown option --nope (try pnpm start -- --help)\n',
    });
  });
});
