// Start the terminal agent the way a clone does, `pnpm start`, with everything built, and time it
// until the first prompt is on stdout (piped input, left open), against node running the built
// bin directly, interleaved in the same run; `node scripts/start.mjs` alone shows how much of the
// difference is pnpm's own start. On Linux it also sums the CPU time the processes of each way
// took until that prompt, a figure a busy machine disturbs far less than the elapsed time.
// Prints figures; never fails on a timing.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: a plain Node script of the repository, without type declarations.
import { buildPlan } from '../scripts/build-plan.mjs';
import { BENCH_ENV } from './fixtures/bench-env.js';
import { median } from './fixtures/median.js';

const REPETITIONS = 11;
const GOAL_MS = 1_000;
const RATIO_GOAL = 1.5;

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = fileURLToPath(new URL('../packages/stdio-agent/dist/bin.js', import.meta.url));
const start = fileURLToPath(new URL('../scripts/start.mjs', import.meta.url));
// No key: the offline demo runs, whatever the machine's environment says.
const env = BENCH_ENV;

// As npm runs it: a package manager that forwards SIGINT gets the agent as a child process of
// the script (scripts/start-command.mjs, agentInProcess), as every `pnpm start` did before.
const asChild = {
  npm_lifecycle_event: 'start',
  npm_config_user_agent: 'npm/10.8.2 node/v20',
  npm_execpath: '/usr/lib/npm/bin/npm-cli.js',
};

const commands = {
  'node dist/bin.js (baseline)': [process.execPath, [bin], {}],
  'node scripts/start.mjs': [process.execPath, [start], {}],
  'start.mjs, agent as a child': [process.execPath, [start], asChild],
  'pnpm start': ['pnpm', ['--silent', 'start'], {}],
} as const satisfies Record<
  string,
  readonly [string, readonly string[], Readonly<Record<string, string>>]
>;

type Name = keyof typeof commands;

/** The /proc clock: Linux reports process times in ticks of 1/100 s (USER_HZ) on every platform. */
const TICKS_PER_MS = 100 / 1000;

/**
 * The CPU time (user and system) in ms of process `pid`, of the children it has reaped, and of
 * its living descendants, from /proc; undefined off Linux or when it has exited.
 */
function treeCpu(pid: number): number | undefined {
  try {
    // The fields after the command name, which may hold spaces: utime, stime, cutime, cstime are
    // the 14th to the 17th of the line (proc(5)).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)?.split(' ') ?? [];
    let ticks = 0;
    for (const index of [11, 12, 13, 14]) ticks += Number(fields[index]);
    let total = ticks / TICKS_PER_MS;
    for (const thread of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${thread}/children`, 'utf8');
      for (const child of children.split(' ').filter(Boolean)) total += treeCpu(Number(child)) ?? 0;
    }
    return Number.isFinite(total) ? total : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Milliseconds from spawn until the prompt is on stdout, and the CPU time the processes took
 * until then (`treeCpu`); then the input ends and it exits.
 */
function firstPrompt(
  command: string,
  args: readonly string[],
  extraEnv: Readonly<Record<string, string>>,
): Promise<{ elapsed: number; cpu: number | undefined }> {
  return new Promise((resolve, reject) => {
    const begun = process.hrtime.bigint();
    const child = spawn(command, args, {
      cwd: root,
      env: { ...env, ...extraEnv },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    let errors = '';
    let seen = false;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!seen && output.includes('> ')) {
        seen = true;
        const elapsed = Number(process.hrtime.bigint() - begun) / 1e6;
        resolve({ elapsed, cpu: treeCpu(child.pid as number) });
        // The end of input makes the agent exit: nothing is left running.
        child.stdin.end();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (!seen)
        reject(new Error(`${command} exited (${code}) before its prompt:\n${output}${errors}`));
      else if (errors.includes('Building'))
        reject(new Error(`pnpm start built something:\n${errors}`));
    });
  });
}

/** Prints the median time to the first prompt of each way to start, and the overhead of pnpm start. */
export async function run(): Promise<void> {
  const stale = (buildPlan(root, 'dsh-stdio-agent') as { name: string; stale?: string }[]).filter(
    (entry) => entry.stale !== undefined,
  );
  if (stale.length > 0) {
    throw new Error(
      `Build first (pnpm build): ${stale.map((entry) => `${entry.name}, ${entry.stale}`).join('; ')}`,
    );
  }
  const times = Object.fromEntries(
    Object.keys(commands).map((name) => [name, [] as number[]]),
  ) as Record<Name, number[]>;
  const cpuTimes = Object.fromEntries(
    Object.keys(commands).map((name) => [name, [] as number[]]),
  ) as Record<Name, number[]>;
  // Interleaved, so that a slow moment of the machine weighs on all alike; the first round
  // warms the file cache and is not counted.
  for (let repetition = 0; repetition <= REPETITIONS; repetition++) {
    for (const [name, [command, args, extraEnv]] of Object.entries(commands) as [
      Name,
      (typeof commands)[Name],
    ][]) {
      const { elapsed, cpu } = await firstPrompt(command, args, extraEnv);
      if (repetition === 0) continue;
      times[name].push(elapsed);
      if (cpu !== undefined) cpuTimes[name].push(cpu);
    }
  }
  const baseline = median(times['node dist/bin.js (baseline)']);
  // CPU times come in ticks of 10 ms per process: their mean, not their median, is the figure.
  const mean = (values: readonly number[]) =>
    values.reduce((sum, value) => sum + value, 0) / values.length;
  const cpuBaseline = mean(cpuTimes['node dist/bin.js (baseline)']);
  const withCpu = cpuTimes['pnpm start'].length === REPETITIONS;
  console.log(
    `Spawn to the first prompt on stdout (piped input), everything built, median of ${REPETITIONS} runs${withCpu ? '; and the CPU time of its processes until then, mean' : ''}.`,
  );
  for (const name of Object.keys(commands) as Name[]) {
    const time = median(times[name]);
    const cpu = mean(cpuTimes[name]);
    console.log(
      `  ${name.padEnd(30)} ${time.toFixed(1).padStart(7)} ms  (${(time / baseline).toFixed(2)}x the baseline)${withCpu ? `  CPU ${cpu.toFixed(0).padStart(4)} ms (${(cpu / cpuBaseline).toFixed(2)}x)` : ''}`,
    );
  }
  const pnpmStart = median(times['pnpm start']);
  const ratio = pnpmStart / baseline;
  console.log(
    `  pnpm start, nothing changed: ${pnpmStart.toFixed(0)} ms (goal: about ${GOAL_MS} ms${pnpmStart <= GOAL_MS ? ', met' : ', missed'}), ${ratio.toFixed(2)}x node dist/bin.js (goal: at most ${RATIO_GOAL}x${ratio <= RATIO_GOAL ? ', met' : ', missed'})`,
  );
  // What stays between the two: pnpm itself (its start, the check that node_modules matches
  // the lockfile, a shell for the script) and the check of the build (build-plan.mjs). The
  // workspace has no .pnpmfile.mjs: pnpm 12 would start Node to load it before every script.
  console.log(
    '  (pnpm start also pays pnpm itself: its start, its check of node_modules, and sh for the script.)',
  );
}
