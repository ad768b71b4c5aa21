// Three questions in one form over real stdio pipes: the client prompts, the agent sends one
// form of three questions (a choice with a typed-answer companion, several choices, a typed
// name), the client answers at once, the turn ends. `dsh-acp` (agent loop, question contract,
// ACP provider) against a bare agent written on the SDK that sends the same messages. Both
// processes run side by side, warmed up, measured interleaved; the figures are medians.
import {
  type BenchAgent,
  percentile,
  startAgent,
  THREE_QUESTION_AGENTS,
} from './fixtures/acp-bench-agent.js';

const WARM_UP = 300;
const ROUND_TRIPS = 2_000;

export async function run(): Promise<void> {
  const names = Object.keys(THREE_QUESTION_AGENTS);
  const started = await Promise.all(
    Object.values(THREE_QUESTION_AGENTS).map((args) => startAgent(args)),
  );
  const agents = names.map((name, index) => ({
    name,
    agent: started[index] as BenchAgent,
    times: [] as number[],
  }));
  try {
    for (let round = 0; round < WARM_UP; round++) {
      for (const { agent } of agents) await agent.roundTrip();
    }
    for (let round = 0; round < ROUND_TRIPS; round++) {
      // Alternate which goes first, so neither always runs right after the other.
      const order = round % 2 === 0 ? agents : [...agents].reverse();
      for (const entry of order) entry.times.push(await entry.agent.roundTrip());
    }
  } finally {
    await Promise.all(agents.map(({ agent }) => agent.stop()));
  }
  console.log(
    `Three questions in one form, round trip over stdio (prompt -> form -> answers -> end_turn), ${ROUND_TRIPS.toLocaleString('en')} interleaved round trips each after ${WARM_UP} to warm up:`,
  );
  console.log('| agent | median | p90 | p99 |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const { name, times } of agents) {
    const ms = (fraction: number) => `${percentile(times, fraction).toFixed(3)} ms`;
    console.log(`| ${name} | ${ms(0.5)} | ${ms(0.9)} | ${ms(0.99)} |`);
  }
  const [ours, bare] = agents.map(({ times }) => percentile(times, 0.5)) as [number, number];
  console.log(
    `\ndsh-acp / bare SDK (medians): ${(ours / bare).toFixed(2)}x; overhead ${((ours - bare) * 1000).toFixed(0)} µs per form of three questions`,
  );
}
