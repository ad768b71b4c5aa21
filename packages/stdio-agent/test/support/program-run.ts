import { PassThrough } from 'node:stream';
import { runAgentProgram } from 'dsh-agent/command-line';
import { terminalAgentProgram } from '../../src/terminal-agent/terminal-agent-program.js';
import { type BinRun, TEST_STATE_HOME } from './bin-process.js';

/**
 * The `dsh-stdio-agent` program run in-process by `runAgentProgram`, as its bin runs it, on
 * in-memory pipes in place of stdin, stdout and stderr: line mode, as in `printf … |
 * dsh-stdio-agent` (bin.test.ts starts the bin itself).
 */
export interface ProgramProcess {
  write(text: string): void;
  end(text?: string): void;
  stdout(): string;
  /** Resolves once stdout contains `text`. */
  waitForOutput(text: string): Promise<void>;
  /** How it ended: its status (`signal` is always null), and what it wrote. */
  readonly done: Promise<BinRun>;
}

/**
 * Starts the program with `args` in the environment the bin gets from `startBin`: this
 * process's, with no API key (so the demo runs unless `env` gives one), no colour settings but
 * the test's, and its default state folder in `TEST_STATE_HOME`; in the folder `cwd` (default:
 * this process's).
 */
export function startProgram(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  { cwd = process.cwd() }: { readonly cwd?: string } = {},
): ProgramProcess {
  const programEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DEEPSEEK_API_KEY: '',
    DSH_API_KEY: '',
    XDG_STATE_HOME: TEST_STATE_HOME,
  };
  // Even an empty FORCE_COLOR forces colours: only the test's own settings count.
  for (const name of ['NO_COLOR', 'FORCE_COLOR', 'NODE_DISABLE_COLORS']) delete programEnv[name];
  Object.assign(programEnv, env);
  const input = new PassThrough();
  const output = new PassThrough();
  const errorOutput = new PassThrough();
  let stdout = '';
  let stderr = '';
  const waiters: { text: string; resolve(): void }[] = [];
  output.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const waiter of [...waiters]) {
      if (stdout.includes(waiter.text)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  });
  errorOutput.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const say = (line: string): void => {
    stderr += `dsh-stdio-agent: ${line}\n`;
  };
  const program = terminalAgentProgram({
    say,
    io: { input, output, errorOutput, env: programEnv, cwd },
  });
  const done = runAgentProgram(program, args, { env: programEnv, stdout: output }).then(
    (code): BinRun => ({ code, signal: null, stdout, stderr }),
  );
  return {
    write: (text) => void input.write(text),
    end: (text) => void (text === undefined ? input.end() : input.end(text)),
    stdout: () => stdout,
    waitForOutput: (text) =>
      new Promise<void>((resolve, reject) => {
        if (stdout.includes(text)) resolve();
        else waiters.push({ text, resolve });
        done.then(() =>
          reject(
            new Error(
              `The program ended without writing ${JSON.stringify(text)}:\n${stdout}\n${stderr}`,
            ),
          ),
        );
      }),
    done,
  };
}

/** Runs the program to its end with `input` piped in. */
export function runProgram(
  args: readonly string[],
  input = '',
  env: NodeJS.ProcessEnv = {},
  options: { readonly cwd?: string } = {},
): Promise<BinRun> {
  const program = startProgram(args, env, options);
  program.end(input);
  return program.done;
}

/** Runs the program to its end in the folder `cwd`, with nothing piped in. */
export function runProgramIn(cwd: string, args: readonly string[]): Promise<BinRun> {
  return runProgram(args, '', {}, { cwd });
}
