// The floor of the one-question round trip in memory: the bare-SDK agent against the same
// agent sending dsh's messages byte for byte (acp-baseline-agent.mjs --dsh-messages), against
// it asking through dsh's question contract and ACP provider alone (--dsh-question: what a
// harness author's agent on dsh-user-interaction and dsh-acp's root pays, with no loop and no
// session), and against `dsh-acp --no-history`. The mirror over the bare agent is what the
// product's messages cost the client and the pipes; the contract over the mirror is what the
// question's checks and its provider cost; dsh over the contract is what the agent loop, its
// session and its tools cost.
import {
  BASELINE_AGENT,
  DSH_ACP_BIN,
  ONE_QUESTION_SCRIPT,
  percentile,
} from './fixtures/acp-bench-agent.js';
import { measureRoundTrips, printRoundTripTable } from './fixtures/acp-round-trips.js';

const WARM_UP = Number(process.env.DSH_BENCH_WARM_UP ?? 300);
const ROUND_TRIPS = Number(process.env.DSH_BENCH_ROUND_TRIPS ?? 2_000);

export async function run(): Promise<void> {
  const agents = await measureRoundTrips(
    {
      'dsh-acp --no-history': [DSH_ACP_BIN, '--script', ONE_QUESTION_SCRIPT, '--no-history'],
      ...(process.env.DSH_BENCH_BEFORE !== undefined &&
        process.env.DSH_BENCH_BEFORE !== '' && {
          'dsh-acp --no-history before': [
            process.env.DSH_BENCH_BEFORE,
            '--script',
            ONE_QUESTION_SCRIPT,
            '--no-history',
          ],
        }),
      'bare SDK, dsh question contract': [BASELINE_AGENT, '--dsh-question'],
      'bare SDK, dsh messages': [BASELINE_AGENT, '--dsh-messages'],
      'bare SDK': [BASELINE_AGENT],
    },
    WARM_UP,
    ROUND_TRIPS,
  );
  console.log(
    `One question round trip in memory, ${ROUND_TRIPS.toLocaleString('en')} interleaved round trips each after ${WARM_UP} to warm up:`,
  );
  printRoundTripTable(agents);
  const timesOf = (name: string) => agents.find((agent) => agent.name === name)?.times ?? [];
  const bare = timesOf('bare SDK');
  console.log('');
  for (const { name, times } of agents) {
    if (name === 'bare SDK') continue;
    const ratio = (fraction: number) =>
      (percentile(times, fraction) / percentile(bare, fraction)).toFixed(2);
    console.log(
      `${name} / bare SDK: p50 ${ratio(0.5)}x, p99 ${ratio(0.99)}x; p50 overhead ${((percentile(times, 0.5) - percentile(bare, 0.5)) * 1000).toFixed(0)} µs per question`,
    );
  }
}
