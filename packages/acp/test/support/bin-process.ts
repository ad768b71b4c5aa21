import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import { builtBin, deferred } from 'dsh-agent/testing';
import { AsyncQueue } from '../../src/testing.js';

/** The built `dsh-acp` bin: the tests run what users run. */
const bin = builtBin(new URL('../../', import.meta.url), 'dsh-acp');
export const BIN = bin.path;
export const assertBuilt = bin.assertBuilt;

export const TEST_STATE_HOME = bin.stateHome.path;
/** Each test file finds the bins' state folder empty (see each-file.ts). */
export const emptyBinStateHome = bin.stateHome.empty;

/** How the process ended. */
export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** The bin as a child process over real pipes. */
export interface BinProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** An ACP stream over the child's stdin and stdout, for the SDK's client. */
  readonly stream: Stream;
  /** Every complete line the child wrote to stdout, raw; `.next()` waits for the next one. */
  readonly lines: AsyncQueue<string>;
  /** What the child wrote to stderr so far. */
  stderr(): string;
  /** Writes raw bytes to the child's stdin. */
  write(text: string): void;
  /** Resolves when the child has exited. */
  readonly exited: Promise<Exit>;
}

/**
 * Spawns the built bin with `args` on pipes, with no API key in its environment (so the demo
 * runs unless `env` gives one) and its default state folder in `TEST_STATE_HOME`.
 */
export function spawnBin(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  program = BIN,
): ChildProcessWithoutNullStreams {
  if (program === BIN) assertBuilt();
  return spawn(process.execPath, [program, ...args], {
    env: {
      ...process.env,
      DEEPSEEK_API_KEY: '',
      DSH_API_KEY: '',
      XDG_STATE_HOME: TEST_STATE_HOME,
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/**
 * Starts the built bin (or `program`, a script over the built package) with `args`, with no API key in its environment (so the demo runs
 * unless `env` gives one), and its default state folder in a temporary folder of the test run.
 */
export function startBin(
  args: readonly string[] = [],
  env: NodeJS.ProcessEnv = {},
  program = BIN,
): BinProcess {
  const child = spawnBin(args, env, program);
  const output = agentOutput(child.stdout);
  let stderr = '';
  child.stdout.on('end', output.end);
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  // A test that ends the child's stdin early must not see EPIPE as a failure.
  child.stdin.on('error', () => {});
  const exit = deferred<Exit>();
  child.on('exit', (code, signal) => exit.resolve({ code, signal }));
  return {
    child,
    stream: ndJsonStream(agentInput(child.stdin), output.stdout),
    lines: output.lines,
    stderr: () => stderr,
    write: (text) => void child.stdin.write(text),
    exited: exit.promise,
  };
}

/**
 * An agent's stdout as a client reads it (a web stream, which records nothing more once the
 * client has stopped reading it) and as its lines; `end` when the output ends.
 */
export function agentOutput(output: NodeJS.ReadableStream): {
  readonly stdout: ReadableStream<Uint8Array>;
  readonly lines: AsyncQueue<string>;
  end(): void;
} {
  const lines = new AsyncQueue<string>();
  let pending = '';
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  // Once the client's connection has closed, it reads no more: later bytes are only recorded.
  let reading = true;
  const stdout = new ReadableStream<Uint8Array>({
    start(control) {
      controller = control;
    },
    cancel() {
      reading = false;
    },
  });
  output.on('data', (chunk: Buffer) => {
    if (reading) controller.enqueue(new Uint8Array(chunk));
    pending += chunk.toString('utf8');
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    for (const line of parts) lines.push(line);
  });
  return {
    stdout,
    lines,
    end() {
      if (pending !== '') lines.push(pending);
      if (reading) controller.close();
    },
  };
}

/** A web stream a client writes to an agent's stdin with, which `close` ends. */
export function agentInput(input: NodeJS.WritableStream): WritableStream<Uint8Array> {
  return new WritableStream<Uint8Array>({
    write(chunk) {
      return new Promise<void>((resolve, reject) =>
        input.write(chunk, (error) => (error ? reject(error) : resolve())),
      );
    },
    close() {
      input.end();
    },
  });
}

/** Ends the child's stdin (the editor went away) and waits for it to exit. */
export async function endInput(bin: BinProcess): Promise<Exit> {
  bin.child.stdin.end();
  return await bin.exited;
}

/** Parses a raw stdout line as a JSON-RPC 2.0 message, or throws saying what the line was. */
export function jsonRpcLine(line: string): AnyMessage {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    throw new Error(`stdout carried a line that is not JSON: ${JSON.stringify(line)}`);
  }
  if (
    typeof message !== 'object' ||
    message === null ||
    (message as { jsonrpc?: unknown }).jsonrpc !== '2.0'
  ) {
    throw new Error(`stdout carried a line that is not JSON-RPC 2.0: ${line}`);
  }
  return message as AnyMessage;
}

/** A path under `test/fixtures/`. */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
}

/** True when stderr holds a stack trace (`    at …` lines). */
export function hasStackTrace(stderr: string): boolean {
  return /^\s+at\s/m.test(stderr);
}
