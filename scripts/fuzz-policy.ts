// The differential test of the command policy against real bash, for longer than the suite runs
// it: `pnpm fuzz-policy [seeds] [commands per seed]` (default 20 seeds of 2,000 commands, from
// seed 1). Each seed's commands are generated, decided, and those a rule allows run under bash
// in a temporary folder, traced; any command bash ran that the policy did not see is printed.
// Needs strace (`sh scripts/setup.sh` installs it). Exits 1 on a disagreement.
import { differentialRun } from '../packages/core/tools/test/support/bash-differential.js';

const seeds = Number(process.argv[2] ?? 20);
const count = Number(process.argv[3] ?? 2_000);
let allowed = 0;
let failures = 0;
const started = performance.now();
for (let seed = 1; seed <= seeds; seed++) {
  const result = await differentialRun(seed, count);
  allowed += result.allowed;
  for (const disagreement of result.disagreements) {
    failures++;
    console.log(`seed ${seed}: ${JSON.stringify(disagreement)}`);
  }
}
console.log(
  `${seeds} seeds x ${count} commands: ${allowed} allowed and run under bash, ${failures} disagreements, ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
process.exit(failures === 0 ? 0 : 1);
