// 200 sessions at once, each answering one question, over real stdio pipes: the total time of
// the batch and the agent process's peak memory (VmHWM), for `dsh-acp` (saving its sessions,
// and in memory) and for the bare-SDK agent that sends the same messages. Each agent runs in a fresh process; the first batch is
// cold, the median of the next ones warm; each batch's sessions are closed after it.
import { AGENTS, BASELINE, percentile, startAgent } from './fixtures/acp-bench-agent.js';

const SESSIONS = 200;
const WARM_BATCHES = 5;

export async function run(): Promise<void> {
  console.log(
    `${SESSIONS} concurrent sessions, each answering one question (session/new + prompt -> form -> answer -> end_turn):`,
  );
  console.log(
    '| agent | first batch | warm batch (median of 5) | best warm batch | per session (warm) | RSS idle | peak RSS (VmHWM), first batch | peak RSS, all 6 batches |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  const results: Record<string, { warm: number; best: number; peak: number }> = {};
  for (const [name, args] of Object.entries(AGENTS)) {
    const agent = await startAgent(args);
    try {
      const idle = agent.memory().residentMiB;
      const first = await agent.sessions(SESSIONS);
      const peakFirst = agent.memory().peakMiB;
      const warm: number[] = [];
      for (let batch = 0; batch < WARM_BATCHES; batch++) warm.push(await agent.sessions(SESSIONS));
      const peak = agent.memory().peakMiB;
      const median = percentile(warm, 0.5);
      const best = Math.min(...warm);
      results[name] = { warm: median, best, peak: peakFirst };
      console.log(
        `| ${name} | ${first.toFixed(1)} ms | ${median.toFixed(1)} ms | ${best.toFixed(1)} ms | ${((median / SESSIONS) * 1000).toFixed(0)} µs | ${idle.toFixed(1)} MiB | ${peakFirst.toFixed(1)} MiB | ${peak.toFixed(1)} MiB |`,
      );
    } finally {
      await agent.stop();
    }
  }
  const bare = results[BASELINE];
  if (bare === undefined) return;
  console.log('');
  for (const [name, ours] of Object.entries(results)) {
    if (name === BASELINE) continue;
    console.log(
      `${name} / ${BASELINE}: warm batch ${(ours.warm / bare.warm).toFixed(2)}x (goal: within 1.5x; best batches ${(ours.best / bare.best).toFixed(2)}x), peak memory after the first batch ${(ours.peak / bare.peak).toFixed(2)}x (+${(ours.peak - bare.peak).toFixed(1)} MiB)`,
    );
  }
}
