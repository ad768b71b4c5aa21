// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are shell commands.
// The permission decision for a command line never decided before, against parsing the same
// text as JSON (a linear pass over the same characters, in C++) in the same run: a plain
// compound command at 2,000, 20,000 and 99,000 characters (the time per character says whether
// it stays linear), and the hostile shapes of the attack round (malformed, nested, quadratic for
// a naive reader), which are read by the Bash parser for the deny rules within a time budget.
// Peak memory is the process's resident set, before and after the hostile shapes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PermissionCheck } from 'dsh-agent';
import { createPermissionPolicy, openWorkspace, type Workspace } from 'dsh-tools';
import { median } from './fixtures/median.js';

const ROUNDS = 15;
const LENGTHS = [2_000, 20_000, 99_000];

/** A plain compound command of whole parts, at most `length` characters, all allowed below. */
function compoundCommand(length: number, tag = ''): string {
  const parts = [
    `npm test -- --coverage${tag}`,
    'git status --short',
    "echo 'done: all of it'",
    'ls -la src | grep ts',
  ];
  let command = '';
  for (let index = 0; ; index++) {
    const next = `${index === 0 ? '' : index % 3 === 0 ? '; ' : ' && '}${parts[index % parts.length]}`;
    if (command.length + next.length > length) return command;
    command += next;
  }
}

/** The shapes of the attack round, each about `length` characters. */
function hostileShapes(length: number): [string, string][] {
  const fill = (unit: string) => unit.repeat(Math.floor(length / unit.length));
  return [
    ['malformed: $( repeated', `echo ${fill('$(')}`],
    ['nested substitutions', `echo ${fill('$(echo ')}${')'.repeat(Math.floor(length / 8))}`],
    ['backticks', `echo "${fill('`')}`],
    ['${ repeated', `echo ${fill('${')}`],
    ["test '[[[…'", `test '${fill('[')}'`],
    ['if nested', `${fill('if true; then ')}echo`],
    ['2,500-part && chain', Array.from({ length: 2_500 }, () => 'echo a').join(' && ')],
  ];
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

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

export async function run(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'dsh-bench-policy-'));
  try {
    const workspace = await openWorkspace(folder);
    const policy = createPermissionPolicy({
      workspace,
      stateDir: join(folder, 'state'),
      allow: ['npm test', 'git status', 'echo', 'ls', 'grep', 'test'].map(
        (rule) => `run_command:${rule}`,
      ),
      deny: ['run_command:rm'],
    });
    // Warm up the code paths (plain and parsed) for a second before measuring.
    let started = performance.now();
    for (let index = 0; performance.now() - started < 1_000; index++) {
      await policy.decide(check(workspace, compoundCommand(2_000, ` -w${index}`)));
      await policy.decide(check(workspace, `echo $(ls) w${index}`));
    }
    for (const length of LENGTHS) {
      const perRound = Math.max(2, Math.round(100_000 / length));
      const newOnes = Array.from({ length: ROUNDS * perRound }, (_, index) =>
        check(workspace, compoundCommand(length, ` -t${index}`)),
      );
      const text = newOnes[0]?.description.command?.command ?? '';
      const json = JSON.stringify({ command: text });
      const decision = await policy.decide(check(workspace, compoundCommand(length, ' -x')));
      const times = { fresh: [] as number[], json: [] as number[] };
      for (let round = 0; round < ROUNDS; round++) {
        started = performance.now();
        for (let index = 0; index < perRound; index++)
          await policy.decide(newOnes[round * perRound + index] as PermissionCheck);
        times.fresh.push((performance.now() - started) / perRound);
        started = performance.now();
        for (let index = 0; index < perRound; index++) JSON.parse(json);
        times.json.push((performance.now() - started) / perRound);
      }
      const [fresh, parse] = [median(times.fresh), median(times.json)];
      const goal = length === 2_000 ? `; goal under 1 ms: ${fresh < 1 ? 'met' : 'missed'}` : '';
      console.log(
        `plain command, ${text.length} characters (${decision.decision}): ${(fresh * 1000).toFixed(0)} µs, ${((fresh * 1000) / text.length).toFixed(3)} µs/char, ${(fresh / parse).toFixed(1)}x JSON.parse (${(parse * 1000).toFixed(1)} µs)${goal}`,
      );
    }
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    for (const length of [2_000, 99_000]) {
      for (const [name, text] of hostileShapes(length)) {
        const times: number[] = [];
        let decision = '';
        for (let round = 0; round < 5; round++) {
          started = performance.now();
          decision = (await policy.decide(check(workspace, `${text} #${round}`))).decision;
          times.push(performance.now() - started);
          peak = Math.max(peak, process.memoryUsage().rss);
        }
        console.log(
          `hostile, ${name}, ${text.length} characters: ${median(times).toFixed(1)} ms (${decision})`,
        );
      }
    }
    console.log(
      `resident memory: ${mib(before)} before the hostile shapes, ${mib(peak)} at most during them`,
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
