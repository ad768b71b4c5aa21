// The session store on disk: what an fsync costs here (the price of an answer), what a line
// costs without one, what the fsyncs of many sessions' files cost one after another and side by
// side (the file system commits concurrent fsyncs together: the group commit the store relies
// on across sessions), a session's life (its files made, its lock taken and given back), and
// loading a session of 10,000 events against reading the same file with no checks (readFile,
// split, JSON.parse). On the temporary folder's disk, and on tmpfs when the machine has one
// (/dev/shm), where an fsync costs almost nothing: the store's own work.
import {
  closeSync,
  existsSync,
  fsync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type ConversationEntry, openSessionStore, type SessionStore } from 'dsh-agent';
import { median } from './fixtures/median.js';

/** The CPU time of the process since `since` (user and system), in ms. */
function cpuMs(since: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
}

/**
 * With `DSH_BENCH_BEFORE` set to another build's `dsh-acp` bin (a checkout of main), the
 * `dsh-agent` that build uses loads the same session too, round by round beside this one's.
 */
const BEFORE = process.env.DSH_BENCH_BEFORE;
const openBefore: typeof openSessionStore | undefined =
  BEFORE === undefined || BEFORE === ''
    ? undefined
    : (
        (await import(pathToFileURL(createRequire(BEFORE).resolve('dsh-agent')).href)) as {
          openSessionStore: typeof openSessionStore;
        }
      ).openSessionStore;

const EVENTS = 10_000;
const LINES = 2_000;
const SYNCS = 200;
const SESSIONS = 400;
/**
 * Loads timed, each beside a parse of the same file: many, as on a loaded machine one round in
 * a few is slowed by other work, and the ratio is taken round by round (see `figures`).
 */
const LOADS = 31;
/** Files whose fsyncs are timed together, and how many times. */
const GROUP = 64;
const GROUP_ROUNDS = 5;

const fsyncOf = (fd: number) =>
  new Promise<void>((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve())));

/** One turn with an answered question: five events, as a session writes them. */
function turn(index: number): ConversationEntry[] {
  const id = `call_${index}`;
  return [
    { type: 'prompt', text: `Message ${index}: which database should the service use?` },
    {
      type: 'assistant',
      text: 'One question before I go on.',
      toolCalls: [
        {
          id,
          name: 'ask_user_question',
          arguments:
            '{"question":"Which database?","options":[{"label":"PostgreSQL"},{"label":"SQLite"}]}',
        },
      ],
      reasoning: { text: 'The person has not said which database.', field: 'reasoning_content' },
    },
    {
      type: 'tool-result',
      toolCallId: id,
      result: {
        ok: true,
        output: 'PostgreSQL',
        answer: { answer: 'PostgreSQL', option: { label: 'PostgreSQL' } },
      },
    },
    { type: 'assistant', text: 'PostgreSQL it is. I will set it up with the migrations in place.' },
    { type: 'turn-end', reason: 'finished' },
  ];
}

async function figures(where: string, dir: string): Promise<string[]> {
  // An fsync after a one-line append, one at a time: what an answer waits for.
  const probe = openSync(join(dir, 'probe.jsonl'), 'a', 0o600);
  const line = Buffer.from(`${JSON.stringify(turn(0)[2])}\n`);
  const syncs: number[] = [];
  for (let index = 0; index < SYNCS; index++) {
    writeSync(probe, line);
    const start = performance.now();
    await fsyncOf(probe);
    syncs.push(performance.now() - start);
  }
  let start = performance.now();
  for (let index = 0; index < LINES; index++) writeSync(probe, line);
  const append = (performance.now() - start) / LINES;
  closeSync(probe);

  // The fsyncs of many files: one after another, then all at once (each after a line).
  const group = Array.from({ length: GROUP }, (_, index) =>
    openSync(join(dir, `group-${index}.jsonl`), 'a', 0o600),
  );
  const serial: number[] = [];
  const together: number[] = [];
  for (let round = 0; round < GROUP_ROUNDS; round++) {
    for (const fd of group) writeSync(fd, line);
    start = performance.now();
    for (const fd of group) await fsyncOf(fd);
    serial.push(performance.now() - start);
    for (const fd of group) writeSync(fd, line);
    start = performance.now();
    await Promise.all(group.map(fsyncOf));
    together.push(performance.now() - start);
  }
  for (const fd of group) closeSync(fd);

  // Sessions made, written to (one answered question) and closed, all at once.
  const store: SessionStore = openSessionStore({ dir });
  start = performance.now();
  const sessions = Array.from({ length: SESSIONS }, () => store.create({ cwd: '/' }));
  for (const session of sessions) for (const entry of turn(1)) session.recorder.add(entry);
  await Promise.all(sessions.map((session) => session.recorder.flush()));
  await Promise.all(sessions.map((session) => session.close()));
  const lifecycle = (performance.now() - start) / SESSIONS;

  // A session of 10,000 events.
  const big = store.create({ cwd: '/' });
  for (let index = 0; big.entries.length + index * 5 < EVENTS; index++) {
    for (const entry of turn(index)) big.recorder.add(entry);
  }
  await big.close();
  const path = join(dir, 'sessions', `${big.id}.jsonl`);
  const loads: number[] = [];
  const parses: number[] = [];
  const before = openBefore?.({ dir });
  const beforeLoads: number[] = [];
  // The process's CPU time besides: on a machine busy with other work, a load that makes more
  // system calls waits longer to run again after them, which its wall time counts.
  const parseCpu: number[] = [];
  const loadCpu: number[] = [];
  const beforeCpu: number[] = [];
  let events = 0;
  let lines = 0;
  // What each round times, a parse and each store's load. Whatever runs after another pays for
  // the garbage it left (10,000 objects each): each round starts with the next one, and none
  // keeps what it read once it is timed.
  const steps: (() => Promise<void>)[] = [
    async () => {
      const cpu = process.cpuUsage();
      const start = performance.now();
      const text = readFileSync(path, 'utf8');
      lines = text
        .split('\n')
        .filter((part) => part !== '')
        .map((part) => JSON.parse(part) as unknown).length;
      parses.push(performance.now() - start);
      parseCpu.push(cpuMs(cpu));
    },
    async () => {
      const cpu = process.cpuUsage();
      const start = performance.now();
      const loaded = await store.open(big.id);
      loads.push(performance.now() - start);
      loadCpu.push(cpuMs(cpu));
      events = loaded.entries.length;
      await loaded.close();
    },
    ...(before === undefined
      ? []
      : [
          async () => {
            const cpu = process.cpuUsage();
            const start = performance.now();
            const loaded = await before.open(big.id);
            beforeLoads.push(performance.now() - start);
            beforeCpu.push(cpuMs(cpu));
            await loaded.close();
          },
        ]),
  ];
  for (let round = 0; round < LOADS; round++) {
    for (let step = 0; step < steps.length; step++) {
      await (steps[(round + step) % steps.length] as () => Promise<void>)();
    }
    if (lines !== events + 1) throw new Error('the file and the load disagree');
  }
  const load = median(loads);
  const parse = median(parses);
  // The median of each round's load over its own parse: a round slowed by other work on the
  // machine slows both, and its ratio stays true where a ratio of two medians would not.
  const ratioOf = (times: readonly number[], of: readonly number[]) =>
    median(times.map((time, round) => time / (of[round] as number)));
  const ratio = ratioOf(loads, parses);
  return [
    `| ${where} | ${median(syncs).toFixed(3)} ms | ${(append * 1000).toFixed(1)} µs | ${median(serial).toFixed(1)} ms / ${median(together).toFixed(1)} ms | ${(lifecycle * 1000).toFixed(0)} µs | ${load.toFixed(1)} ms (${events.toLocaleString('en')} events) | ${parse.toFixed(1)} ms | ${ratio.toFixed(2)}x | ${ratioOf(loadCpu, parseCpu).toFixed(2)}x |`,
    ...(before === undefined
      ? []
      : [
          `| ${where}, before | | | | | ${median(beforeLoads).toFixed(1)} ms | ${parse.toFixed(1)} ms | ${ratioOf(beforeLoads, parses).toFixed(2)}x | ${ratioOf(beforeCpu, parseCpu).toFixed(2)}x |`,
        ]),
  ];
}

export async function run(): Promise<void> {
  const places: [string, string][] = [
    [`temporary folder (${tmpdir()})`, mkdtempSync(join(tmpdir(), 'dsh-bench-store-'))],
  ];
  if (existsSync('/dev/shm'))
    places.push(['tmpfs (/dev/shm)', mkdtempSync('/dev/shm/dsh-bench-store-')]);
  console.log(
    `The session store: fsync after a one-line append (median of ${SYNCS}); a line written without one (mean of ${LINES}); the fsyncs of ${GROUP} files after a line each, one after another / side by side (median of ${GROUP_ROUNDS}); a session's life, ${SESSIONS} at once (create, lock, one answered question with its fsync, close; mean); loading a session of ${EVENTS.toLocaleString('en')} events (median of ${LOADS}) against readFile + split + JSON.parse of the same file, each load beside a parse (the ratio: the median of the ${LOADS} rounds' own):`,
  );
  console.log(
    `| where | fsync | line | ${GROUP} fsyncs: serial / side by side | session life | load | parse only | load / parse (goal: within 1.3x) | the same in CPU time |`,
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  try {
    for (const [where, dir] of places)
      for (const row of await figures(where, dir)) console.log(row);
  } finally {
    for (const [, dir] of places) rmSync(dir, { recursive: true, force: true });
  }
}
