// One approved edit over real stdio pipes: the client prompts, the agent shows the write as a
// tool call with its diff, asks `session/request_permission`, the client allows it at once, the
// write runs (for dsh-acp, a real atomic write with its fsync, in a temporary folder), the turn
// ends. `dsh-acp` (saving, and --no-history) against a bare-SDK agent sending the same messages
// and writing nothing, and the same agent doing the least the write takes (read, write a new
// file, fsync, rename), and that agent also keeping a saving agent's promise at its least (the
// decision written and fsynced before the write: the limit of dsh-acp saving its sessions),
// side by side, warmed up, interleaved; medians. The goal (within 1.2x, issue 36) compares like with
// like: dsh-acp saving against that limit, dsh-acp --no-history against the bare agent doing the
// write itself. The ratio to the bare agent that writes nothing is printed too: the durable write
// alone costs more than the whole exchange of messages, so no agent that writes comes near it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DSH_ACP_BIN, percentile } from './fixtures/acp-bench-agent.js';
import { measureRoundTrips, printRoundTripTable } from './fixtures/acp-round-trips.js';
import { stateFolder } from './fixtures/bench-env.js';

const WARM_UP = 100;
const ROUND_TRIPS = 500;
const SCRIPT = fileURLToPath(new URL('./fixtures/acp-approved-edit.json', import.meta.url));
const BASELINE = 'bare SDK';
const FLOOR = 'bare SDK + the write itself';
const LIMIT = 'bare SDK + 1 fsync + the write itself';
const BEFORE = process.env.DSH_BENCH_BEFORE;

export async function run(): Promise<void> {
  const workspace = mkdtempSync(join(tmpdir(), 'dsh-bench-edit-'));
  try {
    writeFileSync(join(workspace, 'notes.txt'), 'HELLO\n');
    const agents = await measureRoundTrips(
      {
        'dsh-acp': [DSH_ACP_BIN, '--script', SCRIPT, '--state-dir', stateFolder()],
        'dsh-acp --no-history': [DSH_ACP_BIN, '--script', SCRIPT, '--no-history'],
        // With `DSH_BENCH_BEFORE` set to another build's `dsh-acp` bin (a checkout of main),
        // that build runs beside them, for a before and after measured in one run.
        ...(BEFORE !== undefined &&
          BEFORE !== '' && {
            'dsh-acp before': [BEFORE, '--script', SCRIPT, '--state-dir', stateFolder()],
            'dsh-acp before --no-history': [BEFORE, '--script', SCRIPT, '--no-history'],
          }),
        [BASELINE]: [
          fileURLToPath(new URL('./fixtures/acp-baseline-edit-agent.mjs', import.meta.url)),
        ],
        [FLOOR]: [
          fileURLToPath(new URL('./fixtures/acp-baseline-edit-agent.mjs', import.meta.url)),
          '--write',
        ],
        [LIMIT]: [
          fileURLToPath(new URL('./fixtures/acp-baseline-edit-agent.mjs', import.meta.url)),
          '--write',
          '--fsync-dir',
          stateFolder(),
        ],
      },
      WARM_UP,
      ROUND_TRIPS,
      { cwd: workspace },
    );
    console.log(
      `One approved edit round trip over stdio, ${ROUND_TRIPS} interleaved round trips each after ${WARM_UP} to warm up:`,
    );
    printRoundTripTable(agents);
    const median = (of: string) =>
      percentile(agents.find(({ name }) => name === of)?.times ?? [], 0.5);
    const bare = median(BASELINE);
    const floor = median(FLOOR);
    const limit = median(LIMIT);
    for (const { name, times } of agents) {
      if (name === BASELINE) continue;
      const own = percentile(times, 0.5);
      if (name === FLOOR || name === LIMIT) {
        console.log(
          `${name} / ${BASELINE} (medians): ${(own / bare).toFixed(2)}x (what the work costs)`,
        );
        continue;
      }
      // The goal compares like with like: the bare agent sends the same messages and does the
      // same work (the write; saving, also the decision made durable first), with nothing else.
      const saving = !name.endsWith('--no-history');
      const [same, sameMedian] = saving ? [LIMIT, limit] : [FLOOR, floor];
      console.log(
        `${name} / ${same} (medians): ${(own / sameMedian).toFixed(2)}x (goal: within 1.2x); / ${BASELINE}, which writes nothing: ${(own / bare).toFixed(2)}x`,
      );
    }
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}
