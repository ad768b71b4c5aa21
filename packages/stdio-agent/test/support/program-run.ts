import { PassThrough } from 'node:stream';
import { runAgentProgram } from 'dsh-agent/command-line';
import { terminalAgentProgram } from '../../src/terminal-agent/terminal-agent-program.js';
import { type BinRun, runEnv, runOutput, runToEnd } from './bin-process.js';

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

/** Starts the program with `args` in `runEnv(env)`, in the folder `cwd` (default: this process's). */
export function startProgram(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  { cwd = process.cwd() }: { readonly cwd?: string } = {},
): ProgramProcess {
  const programEnv = runEnv(env);
  const input = new PassThrough();
  const output = new PassThrough();
  const errorOutput = new PassThrough();
  const written = runOutput('The program', output, errorOutput);
  const say = (line: string): void => written.addStderr(`dsh-stdio-agent: ${line}\n`);
  const program = terminalAgentProgram({
    say,
    io: { input, output, errorOutput, env: programEnv, cwd },
  });
  const done = runAgentProgram(program, args, { env: programEnv, stdout: output }).then(
    (code): BinRun => ({ code, signal: null, stdout: written.stdout(), stderr: written.stderr() }),
  );
  return {
    write: (text) => void input.write(text),
    end: (text) => void (text === undefined ? input.end() : input.end(text)),
    stdout: written.stdout,
    waitForOutput: (text) => written.waitForOutput(text, done),
    done,
  };
}

const programRuns = runToEnd(startProgram);
/** Runs the program to its end with `input` piped in. */
export const runProgram = programRuns.run;
/** Runs the program to its end in the folder `cwd`, with nothing piped in. */
export const runProgramIn = programRuns.runIn;
