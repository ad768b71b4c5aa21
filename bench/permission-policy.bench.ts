// The permission decision for a long compound command, against parsing the same text as JSON
// (a linear pass over the same characters, in C++) in the same run. The first decision pays
// for loading the Bash grammar; it is measured once, on its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PermissionCheck } from 'dsh-agent';
import { createPermissionPolicy, openWorkspace } from 'dsh-tools';
import { median } from './fixtures/median.js';

const ROUNDS = 15;
const PER_ROUND = 50;

/** A compound command of about `length` characters: parts joined by &&, ;, | and $( ). */
function compoundCommand(length: number): string {
  const parts = [
    'npm test -- --coverage',
    'git status --short',
    'echo "$(git rev-parse HEAD)"',
    'ls -la src | grep ts',
  ];
  let command = '';
  for (let index = 0; command.length < length; index++) {
    command += `${index === 0 ? '' : index % 3 === 0 ? '; ' : ' && '}${parts[index % parts.length]}`;
  }
  return command.slice(0, length).replace(/[^a-z0-9 ]+$/, '');
}

export async function run(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'dsh-bench-policy-'));
  try {
    const workspace = await openWorkspace(folder);
    const policy = createPermissionPolicy({
      workspace,
      stateDir: join(folder, 'state'),
      allow: [
        'run_command:npm test',
        'run_command:git status',
        'run_command:echo',
        'run_command:git rev-parse',
        'run_command:ls',
        'run_command:grep',
      ],
    });
    const command = compoundCommand(2_000);
    const check: PermissionCheck = {
      toolName: 'run_command',
      args: { command },
      description: {
        kind: 'execute',
        command: { command, cwd: workspace.root },
        locations: [{ path: workspace.root }],
      },
    };
    let started = performance.now();
    const first = await policy.decide(check);
    const cold = performance.now() - started;
    const json = JSON.stringify({ command });
    const decisions: number[] = [];
    const baseline: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      started = performance.now();
      for (let index = 0; index < PER_ROUND; index++) await policy.decide(check);
      decisions.push((performance.now() - started) / PER_ROUND);
      started = performance.now();
      for (let index = 0; index < PER_ROUND; index++) JSON.parse(json);
      baseline.push((performance.now() - started) / PER_ROUND);
    }
    const decision = median(decisions);
    const parse = median(baseline);
    console.log(`command: ${command.length} characters, decision: ${first.decision}`);
    console.log(`first decision (loads the Bash grammar): ${cold.toFixed(1)} ms`);
    console.log(
      `decision, median of ${ROUNDS} rounds: ${(decision * 1000).toFixed(0)} µs (goal: under 1 ms)`,
    );
    console.log(
      `JSON.parse of the same text: ${(parse * 1000).toFixed(1)} µs (ratio ${(decision / parse).toFixed(0)}x)`,
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
