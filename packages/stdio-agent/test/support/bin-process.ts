import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { builtBin } from 'dsh-agent/testing';

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
 * Starts the bin with `args` and no API key in its environment (so the demo runs unless
 * a test says otherwise), its default state folder in a temporary folder of the test run,
 * on pipes: line mode, as in `printf … | dsh-stdio-agent`.
 */
export function startBin(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  { cwd }: { readonly cwd?: string } = {},
): BinProcess {
  assertBuilt();
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DEEPSEEK_API_KEY: '',
    DSH_API_KEY: '',
    XDG_STATE_HOME: TEST_STATE_HOME,
  };
  // Even an empty FORCE_COLOR forces colours: only the test's own settings count.
  for (const name of ['NO_COLOR', 'FORCE_COLOR', 'NODE_DISABLE_COLORS']) delete childEnv[name];
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...childEnv, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(cwd !== undefined && { cwd }),
  });
  let stdout = '';
  let stderr = '';
  const waiters: { text: string; resolve(): void }[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const waiter of [...waiters]) {
      if (stdout.includes(waiter.text)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  // A bin that has already exited makes later writes fail with EPIPE: the test sees the exit.
  child.stdin.on('error', () => {});
  const done = new Promise<BinRun>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return {
    write: (text) => child.stdin.write(text),
    end: (text) => child.stdin.end(text),
    stdout: () => stdout,
    pid: child.pid as number,
    kill: () => void child.kill('SIGKILL'),
    waitForOutput: (text) =>
      new Promise<void>((resolve, reject) => {
        if (stdout.includes(text)) resolve();
        else waiters.push({ text, resolve });
        done.then(() =>
          reject(
            new Error(
              `The bin exited without writing ${JSON.stringify(text)}:\n${stdout}\n${stderr}`,
            ),
          ),
        );
      }),
    done,
  };
}

/** Runs the bin to its end with `input` piped in. */
export function runBin(
  args: readonly string[],
  input = '',
  env: NodeJS.ProcessEnv = {},
  options: { readonly cwd?: string } = {},
): Promise<BinRun> {
  const bin = startBin(args, env, options);
  bin.end(input);
  return bin.done;
}

/** Runs the bin to its end in the folder `cwd`, with nothing piped in. */
export function runBinIn(cwd: string, args: readonly string[]): Promise<BinRun> {
  return runBin(args, '', {}, { cwd });
}

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
