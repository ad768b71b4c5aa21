// Three questions in one form over real stdio pipes: the client prompts, the agent sends one
// form of three questions (a choice with a typed-answer companion, several choices, a typed
// name), the client answers at once, the turn ends. `dsh-acp` (agent loop, question contract,
// ACP provider), saving its sessions and in memory (--no-history), against a bare agent written
// on the SDK that sends the same messages (listed last). The processes run side by side, warmed
// up, measured interleaved; the figures are medians.
import { percentile, THREE_QUESTION_AGENTS } from './fixtures/acp-bench-agent.js';
import { measureRoundTrips, printRoundTripTable } from './fixtures/acp-round-trips.js';

const WARM_UP = 300;
const ROUND_TRIPS = 2_000;

export async function run(): Promise<void> {
  const agents = await measureRoundTrips(THREE_QUESTION_AGENTS, WARM_UP, ROUND_TRIPS);
  console.log(
    `Three questions in one form, round trip over stdio (prompt -> form -> answers -> end_turn), ${ROUND_TRIPS.toLocaleString('en')} interleaved round trips each after ${WARM_UP} to warm up:`,
  );
  printRoundTripTable(agents);
  const medians = agents.map(({ name, times }) => ({ name, median: percentile(times, 0.5) }));
  const bare = medians.at(-1)?.median ?? Number.NaN;
  console.log('');
  for (const { name, median } of medians.slice(0, -1)) {
    console.log(
      `${name} / bare SDK (medians): ${(median / bare).toFixed(2)}x; overhead ${((median - bare) * 1000).toFixed(0)} µs per form of three questions`,
    );
  }
}
