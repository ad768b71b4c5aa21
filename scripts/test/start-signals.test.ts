import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
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

  it('Ctrl+Z stops the whole job and fg brings the agent back; Ctrl+C and Ctrl+D still work', async () => {
    // An interactive shell with job control, as a person's: Ctrl+Z read by the agent in raw
    // mode must stop pnpm and scripts/start.mjs as well, or the shell never gets the terminal.
    const child = pty.spawn('/bin/bash', ['--norc', '--noprofile', '-i'], {
      cols: 100,
      rows: 30,
      cwd: ROOT,
      env: {
        ...process.env,
        DEEPSEEK_API_KEY: '',
        DSH_API_KEY: '',
        PS1: 'shell$ ',
      } as Record<string, string>,
    });
    running.add(child);
    let out = '';
    child.onData((data) => {
      out += data;
    });
    const waitFor = (wanted: RegExp, from = 0) =>
      vi.waitFor(
        () => {
          const seen = stripVTControlCharacters(out.slice(from));
          if (!wanted.test(seen)) throw new Error(`Not yet ${wanted}:\n${seen}`);
        },
        { timeout: 20_000, interval: 20 },
      );
    await waitFor(/shell\$ $/);
    child.write('pnpm start -- --no-history --no-color\r');
    await waitFor(/> $/m);
    let mark = out.length;
    child.write('\u001a');
    await waitFor(/Stopped[\s\S]*shell\$ $/, mark);
    mark = out.length;
    child.write('fg\r');
    await waitFor(/> $/, mark);
    mark = out.length;
    child.write('hello\r');
    await waitFor(/TypeScript/, mark);
    child.write('\u0003');
    await waitFor(/Turn cancelled/, mark);
    child.write('\u0004');
    await waitFor(/> \s*shell\$ $/, mark);
    // The status of the job fg brought back: the agent quit at Ctrl+D, as when never stopped.
    child.write('echo "exit=$?"\r');
    await waitFor(/exit=0\s*shell\$ $/, mark);
    expect(out).not.toContain('ELIFECYCLE');
    child.write('exit\r');
  }, 60_000);
});
