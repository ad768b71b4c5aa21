// Start the terminal agent on the demo with piped input ("hello\n", then the pipe stays open)
// and time it until the first question appears on stdout, against bare `node -e 0` starting
// and exiting, interleaved in the same run. Prints figures; never fails on a timing.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BENCH_ENV } from './fixtures/bench-env.js';
import { median } from './fixtures/median.js';

const REPETITIONS = 21;
const FIRST_QUESTION = 'Which language should the new service be written in?';
const GOAL_MS = 60;

const bin = fileURLToPath(new URL('../packages/stdio-agent/dist/bin.js', import.meta.url));
// No key: the offline demo runs, whatever the machine's environment says.
const env = BENCH_ENV;

/** Milliseconds from spawn until `node -e 0` has exited. */
function bareNode(): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', (code) => {
      const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
      if (code === 0) resolve(elapsed);
      else reject(new Error(`node -e 0 exited with ${code}`));
    });
  });
}

/** Milliseconds from spawn until the first question's text is on the agent's stdout. */
function firstQuestion(): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, [bin], { stdio: ['pipe', 'pipe', 'pipe'], env });
    let output = '';
    let stderr = '';
    let seen = false;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!seen && output.includes(FIRST_QUESTION)) {
        seen = true;
        resolve(Number(process.hrtime.bigint() - start) / 1e6);
        child.kill();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (!seen) reject(new Error(`The agent exited (${code}) before asking:\n${output}${stderr}`));
    });
    // The prompt, and no end of input: the question waits for its answer.
    child.stdin.write('hello\n');
  });
}

/** Prints the median time to the first question, bare node's start and exit, and the overhead. */
export async function run(): Promise<void> {
  if (!existsSync(bin)) {
    throw new Error('Build dsh-stdio-agent first: `pnpm --filter dsh-stdio-agent build`.');
  }
  const node: number[] = [];
  const agent: number[] = [];
  // Interleaved, so that a slow moment of the machine weighs on both alike; the first
  // round warms the file cache and is not counted.
  for (let repetition = 0; repetition <= REPETITIONS; repetition++) {
    const nodeTime = await bareNode();
    const agentTime = await firstQuestion();
    if (repetition > 0) {
      node.push(nodeTime);
      agent.push(agentTime);
    }
  }
  const overhead = median(agent) - median(node);
  console.log(
    `Spawn to the first demo question on stdout (piped input), median of ${REPETITIONS} runs.`,
  );
  console.log(`  node -e 0 (start and exit)        ${median(node).toFixed(1)} ms`);
  console.log(`  dsh-stdio-agent, first question    ${median(agent).toFixed(1)} ms`);
  console.log(
    `  overhead above bare node: +${overhead.toFixed(1)} ms (goal: under ${GOAL_MS} ms${overhead < GOAL_MS ? ', met' : ', missed'})`,
  );
}
