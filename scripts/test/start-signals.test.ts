import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildPlan } from '../build-plan.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// The pseudo-terminal the terminal agent's own tests use.
const pty = createRequire(new URL('../../packages/stdio-agent/package.json', import.meta.url))(
  '@lydell/node-pty',
) as typeof import('@lydell/node-pty');

const built = buildPlan(ROOT, 'dsh-stdio-agent').every((entry) => entry.stale === undefined);
const running = new Set<{ kill(): void }>();
afterEach(() => {
  for (const child of running) child.kill();
  running.clear();
});

describe.skipIf(!built)('pnpm start in a real terminal', () => {
  it('quits cleanly after a Ctrl+C at a question: no ELIFECYCLE, status 0', async () => {
    // Ctrl+C goes to every process of the terminal's foreground group: pnpm, the shell it runs
    // the script with, and the agent. Only the agent may decide what it means. (bash around it,
    // as a person's shell: a non-interactive dash would itself die of the SIGINT.)
    const child = pty.spawn(
      '/bin/bash',
      ['-c', 'pnpm start -- --plain --no-history; echo "exit=$?"'],
      {
        cols: 100,
        rows: 30,
        cwd: ROOT,
        env: { ...process.env, DEEPSEEK_API_KEY: '', DSH_API_KEY: '' } as Record<string, string>,
      },
    );
    running.add(child);
    let out = '';
    child.onData((data) => {
      out += data;
    });
    const waitFor = (wanted: RegExp) =>
      vi.waitFor(
        () => {
          if (!wanted.test(out)) throw new Error(`Not yet ${wanted}:\n${out}`);
        },
        { timeout: 20_000, interval: 20 },
      );
    await waitFor(/^> $/m);
    child.write('hello\r');
    await waitFor(/Choose 1-4/);
    child.write('\u0003');
    await waitFor(/Turn cancelled[\s\S]*> $/);
    child.write('\u0004');
    await waitFor(/exit=\d+/);
    expect(out).not.toContain('ELIFECYCLE');
    expect(out).toMatch(/exit=0/);
  }, 40_000);
});
