// Not a benchmark (run.ts runs `*.bench.ts` only): what V8 optimises and deoptimises in an ACP
// agent once it is warm. Starts the agent as `acp-sessions` does, with `--trace-opt
// --trace-deopt`, runs a cold batch of 200 sessions, then `--batches` warm ones, and prints per
// function the optimising compiles and the deopts (with their reasons) after the cold batch.
// V8 prints its traces on stdout, the ACP channel: lines that are not JSON-RPC are the trace.
//
//   pnpm exec tsx bench/jit-counts.ts [--bin packages/acp/dist/bin.js] [--batches 7] [--top 40]
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Readable, Transform, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { client, methods, ndJsonStream, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { BASELINE_AGENT, DSH_ACP_BIN, ONE_QUESTION_SCRIPT } from './fixtures/acp-bench-agent.js';
import { BENCH_ENV, stateFolder } from './fixtures/bench-env.js';
import { cpuMicros } from './fixtures/process-cpu.js';

const { values } = parseArgs({
  options: {
    bin: { type: 'string', default: DSH_ACP_BIN },
    batches: { type: 'string', default: '7' },
    sessions: { type: 'string', default: '200' },
    top: { type: 'string', default: '40' },
    /** Warm batches left out of the CPU figures (still run): the figures of an agent warmer still. */
    skip: { type: 'string', default: '0' },
    'no-history': { type: 'boolean', default: false },
    /** Runs the bare-SDK agent with one write and one fsync per answer instead. */
    limit: { type: 'boolean', default: false },
    /** More V8 flags, space-separated (such as `--print-bytecode --print-bytecode-filter=f`). */
    flags: { type: 'string', default: '' },
    /** Writes the whole trace there, each line after its batch's number. */
    dump: { type: 'string' },
  },
});
const SESSIONS = Number(values.sessions);
const BATCHES = Number(values.batches);

const child = spawn(
  process.execPath,
  [
    '--trace-opt',
    '--trace-deopt',
    '--trace-file-names',
    ...values.flags.split(' ').filter((flag) => flag !== ''),
    ...(values.limit
      ? [BASELINE_AGENT, '--fsync-dir', stateFolder()]
      : [
          values.bin,
          '--script',
          ONE_QUESTION_SCRIPT,
          ...(values['no-history'] ? ['--no-history'] : ['--state-dir', stateFolder()]),
        ]),
  ],
  { env: BENCH_ENV, stdio: ['pipe', 'pipe', 'inherit'] },
);

/** The trace lines, each tagged with the batch it came in (0: the cold one). */
const trace: { batch: number; line: string }[] = [];
let batch = 0;
let partial = '';
// A JSON-RPC message is written in one piece; a trace line may be cut by one (stdio buffers).
const rpc = new Transform({
  transform(chunk: Buffer, _encoding, callback) {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    let out = '';
    for (const line of lines) {
      const at = line.indexOf('{"jsonrpc"');
      if (at === -1) {
        trace.push({ batch, line });
        continue;
      }
      if (at > 0) trace.push({ batch, line: line.slice(0, at) });
      out += `${line.slice(at)}\n`;
    }
    callback(null, out);
  },
});
child.stdout.pipe(rpc);

const connection = client()
  .onRequest(methods.client.elicitation.create, ({ params }) => ({
    action: 'accept',
    content: {
      // The one question's default choice, as `acp-sessions`' client answers.
      choice: (
        params as unknown as {
          requestedSchema: { properties: { choice: { default: string } } };
        }
      ).requestedSchema.properties.choice.default,
    },
  }))
  .onNotification(methods.client.session.update, () => {})
  .connect(
    ndJsonStream(
      Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(rpc) as ReadableStream<Uint8Array>,
    ),
  );
const { agent } = connection;
await agent.request(methods.agent.initialize, {
  protocolVersion: PROTOCOL_VERSION,
  clientCapabilities: { elicitation: { form: {} } },
});

async function oneSession(): Promise<string> {
  const { sessionId } = await agent.request(methods.agent.session.new, {
    cwd: '/',
    mcpServers: [],
  });
  await agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: 'text', text: 'Which database?' }],
  });
  return sessionId;
}

/** CPU µs (user + system) of one thread, from `/proc/<pid>/task/<tid>/stat`. */
function taskMicros(pid: number, tid: number): number {
  const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/**
 * CPU µs of each of the agent's threads by role. Node names them all `node`; they are told
 * apart by the order they start in (verified with `--v8-pool-size`): the main thread, the
 * platform's delayed-task thread, its 4 workers (V8's concurrent compiles and GC), one more,
 * then libuv's pool (fsync, open, close), started at its first use.
 */
function threadCpu(pid: number): Record<string, number> {
  const tids = readdirSync(`/proc/${pid}/task`)
    .map(Number)
    .sort((a, b) => a - b);
  const roles: Record<string, number> = { main: 0, 'V8 workers': 0, 'libuv pool': 0, other: 0 };
  for (const [index, tid] of tids.entries()) {
    const role =
      index === 0
        ? 'main'
        : index >= 2 && index <= 5
          ? 'V8 workers'
          : index >= 7
            ? 'libuv pool'
            : 'other';
    roles[role] = (roles[role] as number) + taskMicros(pid, tid);
  }
  return roles;
}
const warmThreads: Record<string, number> = {};

let cpu = 0;
/** CPU per session of each batch, in µs. */
const perBatch: number[] = [];
for (let round = 0; round <= BATCHES; round++) {
  const before = cpuMicros(child.pid as number);
  const threadsBefore = threadCpu(child.pid as number);
  const ids = await Promise.all(Array.from({ length: SESSIONS }, oneSession));
  await Promise.all(
    ids.map((sessionId) => agent.request(methods.agent.session.close, { sessionId })),
  );
  const used = cpuMicros(child.pid as number) - before;
  if (round > Number(values.skip)) {
    cpu += used;
    for (const [role, micros] of Object.entries(threadCpu(child.pid as number))) {
      warmThreads[role] = (warmThreads[role] ?? 0) + micros - (threadsBefore[role] ?? 0);
    }
  }
  perBatch.push(used / SESSIONS);
  batch = round + 1;
}
connection.close();
child.stdin.end();
await new Promise((resolve) => child.on('exit', resolve));

if (values.dump !== undefined) {
  writeFileSync(values.dump, trace.map(({ batch: at, line }) => `${at}\t${line}\n`).join(''));
}

/** `<JSFunction name (sfi = ...)>` with --trace-file-names: `name file:line`. */
function functionOf(line: string): string {
  const match = /<JSFunction ([^>]*?)(?: \(sfi = [0-9a-fx]+\))?>/.exec(line);
  return (match?.[1] ?? '?').replace(/ \(sfi = [0-9a-fx]+\)/, '');
}

type Count = { compiles: number; ms: number; deopts: number; reasons: Map<string, number> };
const counts = new Map<string, Count>();
let compiles = 0;
let compileMs = 0;
let deopts = 0;
const countOf = (name: string): Count => {
  let count = counts.get(name);
  if (count === undefined) {
    count = { compiles: 0, ms: 0, deopts: 0, reasons: new Map() };
    counts.set(name, count);
  }
  return count;
};
for (const { batch: at, line } of trace) {
  if (at === 0) continue;
  // `- took <prepare>, <execute>, <finalize> ms`: the execute phase runs on a background thread.
  const took = /took [\d.]+, ([\d.]+), [\d.]+ ms/.exec(line);
  if (line.startsWith('[completed compiling') || line.startsWith('[aborted optimizing')) {
    const count = countOf(functionOf(line));
    const ms = Number(took?.[1] ?? 0);
    compiles++;
    compileMs += ms;
    count.compiles++;
    count.ms += ms;
  } else if (line.startsWith('[bailout (kind:')) {
    deopts++;
    const count = countOf(functionOf(line));
    count.deopts++;
    const reason = /reason: ([^)]*)\)/.exec(line)?.[1] ?? '?';
    count.reasons.set(reason, (count.reasons.get(reason) ?? 0) + 1);
  } else if (line.startsWith('[marking dependent code')) {
    deopts++;
    const name = /<SharedFunctionInfo ([^>]*)>/.exec(line)?.[1] ?? '?';
    const count = countOf(`${name} (lazy)`);
    count.deopts++;
    const reason = /reason: (.*)\]$/.exec(line)?.[1] ?? '?';
    count.reasons.set(reason, (count.reasons.get(reason) ?? 0) + 1);
  }
}
console.log(
  `${values.limit ? BASELINE_AGENT : values.bin}: after the cold batch, ${BATCHES} warm batches of ${SESSIONS}: ${compiles} optimising compiles (${compileMs.toFixed(0)} ms on the compiler's thread), ${deopts} deopts; CPU per session ${(cpu / ((BATCHES - Number(values.skip)) * SESSIONS)).toFixed(0)} µs (warm batches after the first ${values.skip})`,
);
const top = [...counts].sort(([, a], [, b]) => b.ms - a.ms || b.deopts - a.deopts);
const compilesOf = (at: number) =>
  trace.filter(
    ({ batch: of, line }) =>
      of === at &&
      (line.startsWith('[completed compiling') || line.startsWith('[aborted optimizing')),
  ).length;
console.log(
  `per batch: ${perBatch.map((micros, at) => `${micros.toFixed(0)} µs/${compilesOf(at)} compiles`).join(', ')}`,
);
console.log(
  `CPU per session over the warm batches, by thread: ${Object.entries(warmThreads)
    .map(
      ([role, micros]) =>
        `${role} ${(micros / ((BATCHES - Number(values.skip)) * SESSIONS)).toFixed(0)} µs`,
    )
    .join(', ')}`,
);
console.log('compiles\tms\tdeopts\tfunction');
for (const [name, count] of top.slice(0, Number(values.top))) {
  const reasons = [...count.reasons].map(([reason, n]) => `${reason} x${n}`).join(', ');
  console.log(
    `${count.compiles}\t${count.ms.toFixed(1)}\t${count.deopts}\t${name}${reasons === '' ? '' : `\t${reasons}`}`,
  );
}
