// One question over real stdio pipes: the client prompts, the agent sends the form, the client
// answers at once, the turn ends. `dsh-acp` (agent loop, question contract, ACP provider),
// saving its sessions (an fsync for the answer and one for the turn's end) and in memory
// (--no-history), against a bare agent written on the SDK that sends the same messages. The
// processes run side by side, warmed up, measured interleaved; the figures are medians.
import { AGENTS, BASELINE, percentile } from './fixtures/acp-bench-agent.js';
import { measureRoundTrips, printRoundTripTable } from './fixtures/acp-round-trips.js';

const WARM_UP = 300;
const ROUND_TRIPS = 2_000;

export async function run(): Promise<void> {
  const agents = await measureRoundTrips(AGENTS, WARM_UP, ROUND_TRIPS);
  console.log(
    `One question round trip over stdio (prompt -> form -> answer -> end_turn), ${ROUND_TRIPS.toLocaleString('en')} interleaved round trips each after ${WARM_UP} to warm up:`,
  );
  printRoundTripTable(agents);
  const bare = percentile(agents.find(({ name }) => name === BASELINE)?.times ?? [], 0.5);
  console.log('');
  for (const { name, times } of agents) {
    if (name === BASELINE) continue;
    const ours = percentile(times, 0.5);
    console.log(
      `${name} / ${BASELINE} (medians): ${(ours / bare).toFixed(2)}x (goal: within 1.3x); overhead ${((ours - bare) * 1000).toFixed(0)} µs per question`,
    );
  }
}
