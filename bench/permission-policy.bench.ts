// The permission decision for a long compound command, against parsing the same text as JSON
// (a linear pass over the same characters, in C++) in the same run, at two lengths ten times
// apart: the time per character says whether the decision stays linear. The first decision
// pays for loading the Bash grammar; it is measured once, on its own. A command seen before is
// not parsed again, so a command never decided before is measured apart from the same command
// decided again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PermissionCheck } from 'dsh-agent';
import { createPermissionPolicy, openWorkspace, type Workspace } from 'dsh-tools';
import { median } from './fixtures/median.js';

const ROUNDS = 15;
const LENGTHS = [2_000, 20_000];

/**
 * A compound command of whole parts, at most `length` characters: parts joined by &&, ; and |,
 * with $( ) inside, every one allowed by the rules below. `tag` makes each text a new one.
 */
function compoundCommand(length: number, tag = ''): string {
  const parts = [
    `npm test -- --coverage${tag}`,
    'git status --short',
    'echo "$(git rev-parse HEAD)"',
    'ls -la src | grep ts',
  ];
  let command = '';
  for (let index = 0; ; index++) {
    const next = `${index === 0 ? '' : index % 3 === 0 ? '; ' : ' && '}${parts[index % parts.length]}`;
    if (command.length + next.length > length) return command;
    command += next;
  }
}

function check(workspace: Workspace, command: string): PermissionCheck {
  return {
    toolName: 'run_command',
    args: { command },
    description: {
      kind: 'execute',
      command: { command, cwd: workspace.root },
      locations: [{ path: workspace.root }],
    },
  };
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
    let started = performance.now();
    const first = await policy.decide(check(workspace, compoundCommand(LENGTHS[0] as number)));
    console.log(
      `first decision (loads the Bash grammar): ${(performance.now() - started).toFixed(1)} ms, ${first.decision}`,
    );
    // V8 compiles the parser's WebAssembly again, optimised, while it runs (later still on a
    // busy machine): two seconds of decisions first, so that both lengths meet the same code.
    started = performance.now();
    for (let index = 0; performance.now() - started < 2_000; index++) {
      await policy.decide(check(workspace, compoundCommand(LENGTHS[0] as number, ` -w${index}`)));
    }
    for (const length of LENGTHS) {
      const perRound = Math.max(2, Math.round(100_000 / length));
      const same = check(workspace, compoundCommand(length));
      const characters = same.description.command?.command.length ?? 0;
      // Texts never decided before, one per decision, made before the clock starts.
      const newOnes = Array.from({ length: ROUNDS * perRound }, (_, index) =>
        check(workspace, compoundCommand(length, ` -t${index}`)),
      );
      const json = JSON.stringify({ command: same.description.command?.command });
      const decision = await policy.decide(same);
      const times = { fresh: [] as number[], same: [] as number[], json: [] as number[] };
      for (let round = 0; round < ROUNDS; round++) {
        started = performance.now();
        for (let index = 0; index < perRound; index++) {
          await policy.decide(newOnes[round * perRound + index] as PermissionCheck);
        }
        times.fresh.push((performance.now() - started) / perRound);
        started = performance.now();
        for (let index = 0; index < perRound; index++) await policy.decide(same);
        times.same.push((performance.now() - started) / perRound);
        started = performance.now();
        for (let index = 0; index < perRound; index++) JSON.parse(json);
        times.json.push((performance.now() - started) / perRound);
      }
      const [fresh, again, parse] = [median(times.fresh), median(times.same), median(times.json)];
      const perCharacter = (ms: number) => `${((ms * 1000) / characters).toFixed(3)} µs/char`;
      console.log(`\ncommand: ${characters} characters, decision: ${decision.decision}`);
      // The goal (a decision under 1 ms at 2,000 characters) is shown on both lines: a command
      // never seen before is parsed, one seen before is not.
      const goal = (ms: number) =>
        length === LENGTHS[0] ? `; goal under 1 ms: ${ms < 1 ? 'met' : 'missed'}` : '';
      console.log(
        `  a new command, median of ${ROUNDS} rounds: ${(fresh * 1000).toFixed(0)} µs, ${perCharacter(fresh)} (ratio ${(fresh / parse).toFixed(0)}x JSON.parse${goal(fresh)})`,
      );
      console.log(
        `  the same command again: ${(again * 1000).toFixed(0)} µs, ${perCharacter(again)} (ratio ${(again / parse).toFixed(0)}x JSON.parse${goal(again)})`,
      );
      console.log(
        `  JSON.parse of the same text: ${(parse * 1000).toFixed(1)} µs, ${perCharacter(parse)}`,
      );
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
