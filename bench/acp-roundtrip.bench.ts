// One question over real stdio pipes: the client prompts, the agent sends the form, the client
// answers at once, the turn ends. `dsh-acp` (agent loop, question contract, ACP provider),
// saving its sessions (one fsync, for the answer) and in memory (--no-history), against a bare
// agent written on the SDK that sends the same messages, and that agent with one write and one
// fsync per answer (the limit of keeping answers on disk). The processes run side by side,
// warmed up, measured interleaved; the figures are medians and tails of the same run.
import { AGENTS, comparisonsOf, LIMIT, percentile } from './fixtures/acp-bench-agent.js';
import { measureRoundTrips, printRoundTripTable } from './fixtures/acp-round-trips.js';

const WARM_UP = 300;
const ROUND_TRIPS = 2_000;

export async function run(): Promise<void> {
  const agents = await measureRoundTrips(AGENTS, WARM_UP, ROUND_TRIPS);
  console.log(
    `One question round trip over stdio (prompt -> form -> answer -> end_turn), ${ROUND_TRIPS.toLocaleString('en')} interleaved round trips each after ${WARM_UP} to warm up:`,
  );
  printRoundTripTable(agents);
  const timesOf = (name: string) => agents.find((agent) => agent.name === name)?.times ?? [];
  console.log('');
  for (const { name, reference, goal } of comparisonsOf(agents.map(({ name }) => name))) {
    const ours = timesOf(name);
    const theirs = timesOf(reference);
    const ratio = (fraction: number) =>
      (percentile(ours, fraction) / percentile(theirs, fraction)).toFixed(2);
    const goals =
      reference === LIMIT
        ? ' (goal: p50 within 1.2x, p99 within 1.3x)'
        : goal
          ? ` (goal: p50 within ${goal})`
          : '';
    console.log(
      `${name} / ${reference}: p50 ${ratio(0.5)}x, p99 ${ratio(0.99)}x${goals}; p50 overhead ${((percentile(ours, 0.5) - percentile(theirs, 0.5)) * 1000).toFixed(0)} µs per question`,
    );
  }
}
