import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { ResolvedModel } from '../../src/command-line/resolve-model.js';
import type { AgentProgram, AgentRunCommand } from '../../src/command-line/run-agent-program.js';
import { runAgentProgram } from '../../src/command-line/run-agent-program.js';

// The life of a program from its arguments, in-process: what both bins do before they serve.
// This is the one list of usage errors as a person sees them (one line, the hint, status 2);
// the parser's own messages are listed in agent-command-line.test.ts, and each bin runs one of
// them as a child process, to show its wiring.

const folder = mkdtempSync(join(tmpdir(), 'dsh-agent-program-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface Outcome {
  readonly code: number;
  readonly stdout: string;
  readonly said: readonly string[];
  readonly ran?: { command: AgentRunCommand; model: ResolvedModel; invoked: string };
}

async function run(
  args: readonly string[],
  { env = {}, program = {} }: { env?: NodeJS.ProcessEnv; program?: Partial<AgentProgram> } = {},
): Promise<Outcome> {
  const said: string[] = [];
  const stdout = new PassThrough();
  let written = '';
  stdout.on('data', (chunk) => (written += chunk));
  let ran: Outcome['ran'];
  const code = await runAgentProgram(
    {
      name: 'dsh-example',
      helpText: (command) => `Usage: ${command.name} [options]\n`,
      version: '1.2.3',
      say: (line) => said.push(line),
      async run(command, model, invoked) {
        ran = { command, model, invoked: invoked.withFlags('--help') };
        return 7;
      },
      ...program,
    },
    args,
    { env, stdout },
  );
  return { code, stdout: written, said, ...(ran !== undefined && { ran }) };
}

describe('runAgentProgram', () => {
  it('prints the help and the version on stdout, and runs nothing', async () => {
    expect(await run(['--help'])).toEqual({
      code: 0,
      stdout: 'Usage: dsh-example [options]\n',
      said: [],
    });
    expect(await run(['--help'], { program: { helpText: 'Plain help.\n' } })).toMatchObject({
      stdout: 'Plain help.\n',
    });
    for (const flag of ['--version', '-V']) {
      expect(await run([flag])).toEqual({ code: 0, stdout: '1.2.3\n', said: [] });
    }
  });

  it.each([
    [['--nope'], 'unknown option --nope'],
    [['extra'], 'unexpected argument "extra"'],
    [['--script'], '--script needs a value'],
    [['--model='], '--model needs a value'],
    [
      ['--timeout', 'soon'],
      '--timeout takes a duration from 1ms to 24 days, such as 90000, 90s or 5m (got "soon")',
    ],
    [
      ['--timeout', '0ms'],
      '--timeout 0ms is zero: a duration must be above zero, such as 90s or 5m',
    ],
    [
      ['--timeout', '90'],
      '--timeout 90 would be 90 milliseconds: write 90s for seconds, or 90ms if you mean it',
    ],
    [['--retries', '11'], '--retries takes a whole number from 0 to 10 (got "11")'],
    [
      ['--request-timeout', '20'],
      '--request-timeout 20 would be 20 milliseconds: write 20s for seconds, or 20ms if you mean it',
    ],
    // Found when the model is chosen, not by the parser: a usage error all the same.
    [
      ['--model', 'qwen3'],
      '--model qwen3 needs a model server: set DEEPSEEK_API_KEY (or DSH_API_KEY), or pass --base-url.',
    ],
    [['--base-url', 'ftp://models.example'], expect.stringMatching(/http/)],
  ])('a usage error (%j) is one line with the hint, and status 2', async (args, message) => {
    const outcome = await run(args);
    expect(outcome).toEqual({ code: 2, stdout: '', said: [expect.any(String)] });
    const [line] = outcome.said as [string];
    expect(line.endsWith(' (try dsh-example --help)')).toBe(true);
    expect(line.slice(0, -' (try dsh-example --help)'.length)).toEqual(message);
  });

  it("names the command as the person started it in the hint, or uses the program's own", async () => {
    const started = { DSH_COMMAND: 'pnpm start --' };
    expect((await run(['--nope'], { env: started })).said).toEqual([
      'unknown option --nope (try pnpm start -- --help)',
    ]);
    expect((await run(['--help'], { env: started })).stdout).toBe('Usage: pnpm start [options]\n');
    expect(
      (await run(['--nope'], { program: { usageHint: '(see dsh-example --help)' } })).said,
    ).toEqual(['unknown option --nope (see dsh-example --help)']);
    // The program's own hint also ends a usage error found when the model is chosen.
    expect(
      (await run(['--model', 'qwen3'], { program: { usageHint: '(see dsh-example --help)' } }))
        .said,
    ).toEqual([
      '--model qwen3 needs a model server: set DEEPSEEK_API_KEY (or DSH_API_KEY), or pass --base-url. (see dsh-example --help)',
    ]);
  });

  it("takes the program's own flags, and refuses a value for its boolean ones", async () => {
    const program = { booleanFlags: ['plain'], valueFlags: ['notify'] };
    const outcome = await run(['--plain', '--notify', 'bell'], { program });
    expect(outcome.code).toBe(7);
    expect(outcome.ran?.command.flags.has('plain')).toBe(true);
    expect(outcome.ran?.command.values.get('notify')).toBe('bell');
    expect((await run(['--plain=yes'], { program })).said).toEqual([
      '--plain takes no value (try dsh-example --help)',
    ]);
  });

  it('a script that cannot be used is one line naming the file, and status 1', async () => {
    const missing = await run(['--script', join(folder, 'none.json')]);
    expect(missing.code).toBe(1);
    expect(missing.said).toEqual([expect.stringMatching(/^Cannot read script .*none\.json/)]);
    const invalid = join(folder, 'invalid.json');
    writeFileSync(invalid, JSON.stringify({ steps: [{ questions: [{}] }] }));
    const bad = await run(['--script', invalid]);
    expect(bad.code).toBe(1);
    expect(bad.said).toEqual([expect.stringMatching(/^Invalid script .*invalid\.json: /)]);
    expect(bad.said[0]).not.toContain('\n');
  });

  it('runs the program with the model chosen, and resolves with its status', async () => {
    const outcome = await run(['--timeout', '5m']);
    expect(outcome.code).toBe(7);
    expect(outcome.said).toEqual([]);
    expect(outcome.ran?.model.kind).toBe('demo');
    expect(outcome.ran?.command.questionTimeoutMs).toBe(300_000);
    expect(outcome.ran?.invoked).toBe('dsh-example --help');
  });
});
