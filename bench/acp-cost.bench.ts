// Where an ACP round trip's cost goes, for the agents of `acp-roundtrip`: the CPU time each
// process spends (from /proc, so a busy machine weighs less than on wall-clock times), per
// round trip and per session/new + session/close alone; the heap an open session keeps; and a
// CPU profile of a run, summed by where the code lives. Prints figures; never fails on them.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { methods } from '@agentclientprotocol/sdk';
import {
  AGENTS,
  BASELINE,
  type BenchAgent,
  DSH_ACP_BIN,
  LIMIT,
  ONE_QUESTION_SCRIPT,
  startAgent,
} from './fixtures/acp-bench-agent.js';
import { type AllocationPerTrip, allocationPerTrip } from './fixtures/allocation-per-trip.js';
import { busyTimeByPlace, profileSummary } from './fixtures/cpu-profile.js';
import { criticalPathProfile, printCriticalPath } from './fixtures/critical-path-profile.js';
import { median } from './fixtures/median.js';
import { cpuMicros } from './fixtures/process-cpu.js';

const ROUNDS = 8;
const TRIPS_PER_ROUND = 250;
const OPEN_SESSIONS = 200;
const PROFILED_TRIPS = 1500;
const ALLOCATION_TRIPS = 2000;
const CRITICAL_PATH_TRIPS = 2000;
const HEAP_ON_SIGNAL = fileURLToPath(new URL('./fixtures/heap-on-signal.mjs', import.meta.url));
const NAMES = [
  'dsh-acp',
  'dsh-acp --no-history',
  // With `DSH_BENCH_BEFORE` (another build's bin, such as main's): that build beside them.
  ...Object.keys(AGENTS).filter((name) => name.endsWith(' before')),
  LIMIT,
  BASELINE,
];

async function openAndClose(agent: BenchAgent): Promise<void> {
  const { sessionId } = await agent.agent.request(methods.agent.session.new, {
    cwd: '/',
    mcpServers: [],
  });
  await agent.agent.request(methods.agent.session.close, { sessionId });
}

/** Median CPU µs per call of `work` on each agent, in interleaved rounds. */
async function cpuPerCall(
  agents: readonly { name: string; agent: BenchAgent }[],
  work: (agent: BenchAgent) => Promise<unknown>,
): Promise<Map<string, number>> {
  const perRound = new Map(agents.map(({ name }) => [name, [] as number[]]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? agents : [...agents].reverse();
    for (const { name, agent } of order) {
      const before = cpuMicros(agent.pid);
      for (let trip = 0; trip < TRIPS_PER_ROUND; trip++) await work(agent);
      perRound.get(name)?.push((cpuMicros(agent.pid) - before) / TRIPS_PER_ROUND);
    }
  }
  return new Map([...perRound].map(([name, values]) => [name, median(values)]));
}

/** Heap bytes (after a full collection) an open, answered session keeps, on average. */
async function heapPerSession(args: readonly string[]): Promise<number> {
  let reported: ((bytes: number) => void) | undefined;
  const agent = await startAgent(['--expose-gc', HEAP_ON_SIGNAL, ...args], {
    onStderr(text) {
      const bytes = /^heap (\d+)$/m.exec(text)?.[1];
      if (bytes !== undefined) reported?.(Number(bytes));
    },
  });
  const heap = () =>
    new Promise<number>((resolve) => {
      reported = resolve;
      process.kill(agent.pid, 'SIGUSR2');
    });
  try {
    for (let warm = 0; warm < 50; warm++) await agent.roundTrip();
    const before = await heap();
    const open = await Promise.all(
      Array.from({ length: OPEN_SESSIONS }, () =>
        agent.agent.request(methods.agent.session.new, { cwd: '/', mcpServers: [] }),
      ),
    );
    await Promise.all(
      open.map(({ sessionId }) =>
        agent.agent.request(methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: 'text', text: 'Which database?' }],
        }),
      ),
    );
    return ((await heap()) - before) / OPEN_SESSIONS;
  } finally {
    await agent.stop();
  }
}

/** A CPU profile of `PROFILED_TRIPS` round trips of `node <args>`, by place. */
async function profile(args: readonly string[]) {
  const folder = mkdtempSync(join(tmpdir(), 'dsh-bench-profile-'));
  try {
    const agent = await startAgent(['--cpu-prof', '--cpu-prof-dir', folder, ...args]);
    for (let trip = 0; trip < PROFILED_TRIPS; trip++) await agent.roundTrip();
    await agent.stop();
    const [file] = readdirSync(folder);
    if (file === undefined) throw new Error(`node ${args.join(' ')} wrote no CPU profile`);
    return busyTimeByPlace(join(folder, file));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  const agents = await Promise.all(
    NAMES.map(async (name) => ({ name, agent: await startAgent(AGENTS[name] ?? []) })),
  );
  let trips: Map<string, number>;
  let sessions: Map<string, number>;
  try {
    for (const { agent } of agents) for (let warm = 0; warm < 200; warm++) await agent.roundTrip();
    trips = await cpuPerCall(agents, (agent) => agent.roundTrip());
    sessions = await cpuPerCall(agents, openAndClose);
  } finally {
    await Promise.all(agents.map(({ agent }) => agent.stop()));
  }
  console.log(
    `CPU time of the agent process (median of ${ROUNDS} interleaved rounds of ${TRIPS_PER_ROUND}):`,
  );
  console.log(
    '| agent | per round trip (session/new, prompt, close) | per session/new + close alone |',
  );
  console.log('| --- | ---: | ---: |');
  const bare = {
    trip: trips.get(BASELINE) ?? Number.NaN,
    session: sessions.get(BASELINE) ?? Number.NaN,
  };
  for (const name of NAMES) {
    const trip = trips.get(name) ?? Number.NaN;
    const session = sessions.get(name) ?? Number.NaN;
    console.log(
      `| ${name} | ${trip.toFixed(0)} µs (${(trip / bare.trip).toFixed(2)}x bare) | ${session.toFixed(0)} µs (${(session / bare.session).toFixed(2)}x bare) |`,
    );
  }

  const dshHeap = await heapPerSession([
    DSH_ACP_BIN,
    '--script',
    ONE_QUESTION_SCRIPT,
    '--no-history',
  ]);
  const bareHeap = await heapPerSession(AGENTS[BASELINE] ?? []);
  console.log(
    `\nHeap kept by an open session after its answered question (${OPEN_SESSIONS} open, after a full collection): dsh-acp --no-history ${(dshHeap / 1024).toFixed(1)} KiB, bare SDK ${(bareHeap / 1024).toFixed(1)} KiB`,
  );

  const places = await profile([DSH_ACP_BIN, '--script', ONE_QUESTION_SCRIPT, '--no-history']);
  const beforeArgs = AGENTS['dsh-acp --no-history before'];
  const beforeProfile = beforeArgs === undefined ? undefined : await profile(beforeArgs);
  const bareProfile = await profile(AGENTS[BASELINE] ?? []);
  const byPlace = (list: { place: string; ms: number }[] | undefined) =>
    new Map((list ?? []).map(({ place, ms }) => [place, ms]));
  const bareBy = byPlace(bareProfile);
  const beforeBy = byPlace(beforeProfile);
  const perTrip = (ms: number | undefined) =>
    ms === undefined ? '–' : `${((ms * 1000) / PROFILED_TRIPS).toFixed(0)} µs`;
  console.log(
    `\nCPU profile of ${PROFILED_TRIPS} round trips, busy time by where the code lives (idle left out; the profiler slows both alike):`,
  );
  const before = beforeProfile === undefined ? '' : ' before |';
  console.log(`| where | dsh-acp --no-history |${before} bare SDK |`);
  console.log(`| --- | ---: |${beforeProfile === undefined ? '' : ' ---: |'} ---: |`);
  const total = (list: { ms: number }[]) => list.reduce((sum, { ms }) => sum + ms, 0);
  const places_ = [...new Set([...places, ...(beforeProfile ?? [])].map(({ place }) => place))];
  const oursBy = byPlace(places);
  for (const place of places_) {
    const beforeCell = beforeProfile === undefined ? '' : ` ${perTrip(beforeBy.get(place))} |`;
    console.log(
      `| ${place} | ${perTrip(oursBy.get(place))} |${beforeCell} ${perTrip(bareBy.get(place))} |`,
    );
  }
  const beforeTotal = beforeProfile === undefined ? '' : ` ${perTrip(total(beforeProfile))} |`;
  console.log(`| all | ${perTrip(total(places))} |${beforeTotal} ${perTrip(total(bareProfile))} |`);

  // The same profiles in four figures, and what each program allocates per round trip (read in
  // the program by v8.GCProfiler: the heap's growth between collections, not a timing).
  const columns = [
    { name: 'dsh-acp --no-history', list: places, args: AGENTS['dsh-acp --no-history'] ?? [] },
    ...(beforeProfile === undefined || beforeArgs === undefined
      ? []
      : [{ name: 'main (before)', list: beforeProfile, args: beforeArgs }]),
    { name: 'bare SDK', list: bareProfile, args: AGENTS[BASELINE] ?? [] },
  ];
  const allocations: AllocationPerTrip[] = [];
  for (const { args } of columns) allocations.push(await allocationPerTrip(args, ALLOCATION_TRIPS));
  const summaries = columns.map(({ list }) => profileSummary(list));
  const row = (label: string, cell: (index: number) => string) =>
    console.log(`| ${label} | ${columns.map((_, index) => cell(index)).join(' | ')} |`);
  console.log(
    `\nPer question round trip (profile of ${PROFILED_TRIPS}; allocation over ${ALLOCATION_TRIPS} after a warm-up):`,
  );
  console.log(`| | ${columns.map(({ name }) => name).join(' | ')} |`);
  console.log(`| --- |${columns.map(() => ' ---: |').join('')}`);
  row('our own code (dsh packages)', (i) => perTrip(summaries[i]?.ownMs));
  row('ACP SDK + zod', (i) => perTrip(summaries[i]?.sdkMs));
  row("Node's internals (its JavaScript, native) and other libraries", (i) =>
    perTrip(summaries[i]?.nodeMs),
  );
  row('garbage collector (profile)', (i) => perTrip(summaries[i]?.gcMs));
  row(
    'GC share of busy time',
    (i) => `${(((summaries[i]?.gcShare ?? 0) * 100) as number).toFixed(1)}%`,
  );
  row('allocated per round trip', (i) => `${((allocations[i]?.bytes ?? 0) / 1024).toFixed(1)} KiB`);
  const bareBytes = allocations.at(-1)?.bytes ?? Number.NaN;
  row(
    'allocated beyond the bare SDK',
    (i) => `${(((allocations[i]?.bytes ?? 0) - bareBytes) / 1024).toFixed(1)} KiB`,
  );
  row(
    'GC time per round trip (GCProfiler)',
    (i) => `${(allocations[i]?.gcMicros ?? 0).toFixed(0)} µs`,
  );

  // What a round trip waits for: the same programs, profiled only while the client waits.
  const critical = [];
  for (const { name, args } of columns) {
    critical.push({ name, ...(await criticalPathProfile(args, CRITICAL_PATH_TRIPS)) });
  }
  console.log(
    `\nWhere a question round trip waits for the agent (${CRITICAL_PATH_TRIPS} trips, sampled every 50 µs): A from the prompt's arrival to the form's write, W from the form's write to the answer's arrival (the client has the form: time the agent spends here, such as a write that wakes the client and is descheduled in it, delays the answer's read), B from the answer's arrival to the response's write; µs per stretch. A stretch's length is wall clock: a write that wakes the client can be descheduled while the client runs, so compare the sampled busy time, not the length alone:`,
  );
  printCriticalPath(critical, 25);
}
