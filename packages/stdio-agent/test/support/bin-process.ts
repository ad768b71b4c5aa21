import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { builtBin } from 'dsh-agent/testing';
import { expect } from 'vitest';

/** The built `dsh-stdio-agent` bin: the tests run what people run. */
const bin = builtBin(new URL('../../', import.meta.url), 'dsh-stdio-agent');
export const BIN = bin.path;
export const assertBuilt = bin.assertBuilt;

export const TEST_STATE_HOME = bin.stateHome.path;
/** Each test file finds the bins' state folder empty (see each-file.ts). */
export const emptyBinStateHome = bin.stateHome.empty;

/** How a run of the bin ended, and what it wrote. */
export interface BinRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A running bin with pipes on every side. */
export interface BinProcess {
  write(text: string): void;
  end(text?: string): void;
  stdout(): string;
  /** Resolves once stdout contains `text`. */
  waitForOutput(text: string): Promise<void>;
  /** The process id. */
  readonly pid: number;
  /** Ends the process with SIGKILL, as a crash would. */
  kill(): void;
  readonly done: Promise<BinRun>;
}

/**
 * The environment a run of the agent gets: this process's, with no API key (so the demo runs
 * unless `env` gives one), no colour settings but the test's (`env`'s), and its default state
 * folder in `TEST_STATE_HOME`.
 */
export function runEnv(env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const runEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DEEPSEEK_API_KEY: '',
    DSH_API_KEY: '',
    XDG_STATE_HOME: TEST_STATE_HOME,
  };
  // Even an empty FORCE_COLOR forces colours: only the test's own settings count.
  for (const name of ['NO_COLOR', 'FORCE_COLOR', 'NODE_DISABLE_COLORS']) delete runEnv[name];
  return Object.assign(runEnv, env);
}

/** What a run (of the bin, or of the program in-process) writes, as it comes. */
export interface RunOutput {
  stdout(): string;
  stderr(): string;
  /** Adds to what the run wrote on stderr. */
  addStderr(text: string): void;
  /** Resolves once stdout contains `text`; rejects, saying so, if `done` comes first. */
  waitForOutput(text: string, done: Promise<unknown>): Promise<void>;
}

/** Collects `stdout` and `stderr` of a run named `what` ("The bin", "The program"). */
export function runOutput(
  what: string,
  stdout: NodeJS.ReadableStream,
  stderr: NodeJS.ReadableStream,
): RunOutput {
  let out = '';
  let err = '';
  const waiters: { text: string; resolve(): void }[] = [];
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (const waiter of [...waiters]) {
      if (out.includes(waiter.text)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  });
  stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  return {
    stdout: () => out,
    stderr: () => err,
    addStderr(text) {
      err += text;
    },
    waitForOutput: (text, done) =>
      new Promise<void>((resolve, reject) => {
        if (out.includes(text)) resolve();
        else waiters.push({ text, resolve });
        done.then(() =>
          reject(
            new Error(`${what} ended without writing ${JSON.stringify(text)}:\n${out}\n${err}`),
          ),
        );
      }),
  };
}

/** Something started with `args` that ends with a `BinRun`: the bin, or the program in-process. */
type Starter = (
  args: readonly string[],
  env?: NodeJS.ProcessEnv,
  options?: { readonly cwd?: string },
) => { end(text?: string): void; readonly done: Promise<BinRun> };

/** `start`'s run to its end with `input` piped in, and the same in a folder with nothing piped. */
export function runToEnd(start: Starter) {
  const run = (
    args: readonly string[],
    input = '',
    env: NodeJS.ProcessEnv = {},
    options: { readonly cwd?: string } = {},
  ): Promise<BinRun> => {
    const started = start(args, env, options);
    started.end(input);
    return started.done;
  };
  return { run, runIn: (cwd: string, args: readonly string[]) => run(args, '', {}, { cwd }) };
}

/**
 * Starts the bin with `args` in `runEnv(env)`, on pipes: line mode, as in `printf … |
 * dsh-stdio-agent`.
 */
export function startBin(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  { cwd }: { readonly cwd?: string } = {},
): BinProcess {
  assertBuilt();
  const child = spawn(process.execPath, [BIN, ...args], {
    env: runEnv(env),
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(cwd !== undefined && { cwd }),
  });
  const output = runOutput('The bin', child.stdout, child.stderr);
  // A bin that has already exited makes later writes fail with EPIPE: the test sees the exit.
  child.stdin.on('error', () => {});
  const done = new Promise<BinRun>((resolve) => {
    child.on('close', (code, signal) =>
      resolve({ code, signal, stdout: output.stdout(), stderr: output.stderr() }),
    );
  });
  return {
    write: (text) => child.stdin.write(text),
    end: (text) => child.stdin.end(text),
    stdout: output.stdout,
    pid: child.pid as number,
    kill: () => void child.kill('SIGKILL'),
    waitForOutput: (text) => output.waitForOutput(text, done),
    done,
  };
}

const binRuns = runToEnd(startBin);
/** Runs the bin to its end with `input` piped in. */
export const runBin = binRuns.run;
/** Runs the bin to its end in the folder `cwd`, with nothing piped in. */
export const runBinIn = binRuns.runIn;

/** What a run that refused to start shows: its exit status, nothing on stdout, `stderr`. */
export function refusal(code: number, stderr: string): Pick<BinRun, 'code' | 'stdout' | 'stderr'> {
  return { code, stdout: '', stderr };
}

/** True when the text looks like a JavaScript stack trace. */
export function hasStackTrace(text: string): boolean {
  return /\n\s+at .+[:(]/.test(text);
}

/** A test fixture's path. */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
}

/** Checks that a refused run said why in one line (the demo's scratch-folder line aside), with no stack trace. */
export function expectOneLine(stderr: string): void {
  expect(hasStackTrace(stderr), stderr).toBe(false);
  const lines = stderr
    .trimEnd()
    .split('\n')
    .filter((line) => !line.includes('the demo works in a scratch folder'));
  expect(lines, stderr).toHaveLength(1);
}
