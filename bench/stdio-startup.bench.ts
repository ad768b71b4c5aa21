// Start a process, show one question in line mode, read the piped answer, exit: with
// dsh-stdio-agent and with @inquirer/prompts `select`, in the same run. Inquirer reads
// piped keys too, so both get the same bytes on a pipe. Prints figures; never fails on a timing.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { median } from './fixtures/median.js';

const REPETITIONS = 15;
const ANSWER = '2\n';

const fixtures = {
  'node -e 0': ['-e', '0'],
  'node alone (no question)': ['-e', 'process.stdin.resume(); process.stdin.on("end", () => {})'],
  'node:readline, one line': [
    fileURLToPath(new URL('./fixtures/readline-one-line.mjs', import.meta.url)),
  ],
  'dsh-stdio-agent (line mode)': [
    fileURLToPath(new URL('./fixtures/stdio-ask-line.mjs', import.meta.url)),
  ],
  '@inquirer/prompts select': [
    fileURLToPath(new URL('./fixtures/stdio-inquirer-select.mjs', import.meta.url)),
  ],
} as const;

type Name = keyof typeof fixtures;

/** Milliseconds from spawn to exit, checking that the answer was read. */
function once(args: readonly string[], expectAnswer: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
      if (code !== 0) reject(new Error(`${args.join(' ')} exited with ${code}:\n${output}`));
      else if (expectAnswer && !output.includes('answer: sqlite')) {
        reject(new Error(`${args.join(' ')} did not answer "sqlite":\n${output}`));
      } else resolve(elapsed);
    });
    child.stdin.end(ANSWER);
  });
}

/** Prints median start-to-answer times of both, and their ratio. */
export async function run(): Promise<void> {
  const built = fileURLToPath(new URL('../packages/stdio-agent/dist/index.js', import.meta.url));
  if (!existsSync(built)) {
    throw new Error('Build dsh-stdio-agent first: `pnpm --filter dsh-stdio-agent build`.');
  }
  const names = Object.keys(fixtures) as Name[];
  const times = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<
    Name,
    number[]
  >;
  // Interleaved, so that a slow moment of the machine weighs on every contender alike.
  for (let repetition = 0; repetition < REPETITIONS + 1; repetition++) {
    for (const name of names) {
      const elapsed = await once(
        fixtures[name],
        !name.startsWith('node -e') && !name.includes('alone'),
      );
      if (repetition > 0) times[name].push(elapsed);
    }
  }
  console.log(
    `Spawn, ask one question, read "2" from a pipe, exit. Median of ${REPETITIONS} runs.`,
  );
  for (const name of names)
    console.log(`  ${name.padEnd(30)} ${median(times[name]).toFixed(1)} ms`);
  const ours = median(times['dsh-stdio-agent (line mode)']);
  const inquirer = median(times['@inquirer/prompts select']);
  const node = median(times['node alone (no question)']);
  const bare = median(times['node -e 0']);
  const least = median(times['node:readline, one line']);
  console.log(`  ratio dsh-stdio-agent / inquirer: ${(ours / inquirer).toFixed(2)}`);
  // The goal: one question answered from a pipe within 1.15x of a bare node start. The least
  // any program can do (an ES module reading one line through node:readline) is shown beside
  // it: what is above that line is dsh's own.
  console.log(`  ratio dsh-stdio-agent / node -e 0: ${(ours / bare).toFixed(2)} (goal 1.15)`);
  console.log(`  ratio node:readline, one line / node -e 0: ${(least / bare).toFixed(2)}`);
  console.log(
    `  ratio dsh-stdio-agent / node:readline, one line: ${(ours / least).toFixed(2)} (+${(ours - least).toFixed(1)} ms)`,
  );
  console.log(
    `  above bare node: dsh-stdio-agent +${(ours - node).toFixed(1)} ms, inquirer +${(inquirer - node).toFixed(1)} ms`,
  );
}
