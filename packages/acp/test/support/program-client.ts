import { PassThrough } from 'node:stream';
import type { ClientContext, Stream } from '@agentclientprotocol/sdk';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import { runAgentProgram } from 'dsh-agent/command-line';
import { expect } from 'vitest';
import { acpAgentProgram } from '../../src/server/acp-agent-program.js';
import type { AsyncQueue, TestClient } from '../../src/testing.js';
import {
  agentInput,
  agentOutput,
  hasStackTrace,
  jsonRpcLine,
  TEST_STATE_HOME,
} from './bin-process.js';

/**
 * The `dsh-acp` program run in-process by `runAgentProgram`, as its bin runs it, over two
 * in-memory pipes in place of stdin and stdout: what the program does, without a process
 * (bin-usage.test.ts starts the bin itself).
 */
export interface ProgramRun {
  /** An ACP stream over the program's input and output, for the SDK's client. */
  readonly stream: Stream;
  /** Every complete line the program wrote to its output, raw; `.next()` waits for the next one. */
  readonly lines: AsyncQueue<string>;
  /** What the program logged so far, as the bin writes it on stderr (`dsh-acp: ` lines). */
  stderr(): string;
  /** Writes raw bytes to the program's input. */
  write(text: string): void;
  /** Ends the program's input, as an editor that quits does. */
  end(): void;
  /** Resolves with the program's exit status once it has ended. */
  readonly exited: Promise<number>;
  /** Warnings the process emitted while the program ran (`MaxListenersExceededWarning`). */
  readonly warnings: readonly Error[];
}

/**
 * Runs the program with `args`, with no API key in its environment (so the demo runs unless
 * `env` gives one) and its default state folder in `TEST_STATE_HOME`, as `startBin` starts the
 * bin.
 */
export function startProgram(
  args: readonly string[] = [],
  env: NodeJS.ProcessEnv = {},
): ProgramRun {
  const input = new PassThrough();
  const output = new PassThrough();
  const agent = agentOutput(output);
  let stderr = '';
  const warnings: Error[] = [];
  const onWarning = (warning: Error): void => void warnings.push(warning);
  process.on('warning', onWarning);
  const programEnv = {
    DEEPSEEK_API_KEY: '',
    DSH_API_KEY: '',
    XDG_STATE_HOME: TEST_STATE_HOME,
    ...env,
  };
  const log = (line: string): void => {
    stderr += `dsh-acp: ${line}\n`;
  };
  const program = acpAgentProgram({ log, stdio: { input, output }, env: programEnv });
  const exited = runAgentProgram(program, args, {
    env: programEnv,
    stdout: new PassThrough(),
  }).finally(() => {
    process.off('warning', onWarning);
    agent.end();
  });
  return {
    stream: ndJsonStream(agentInput(input), agent.stdout),
    lines: agent.lines,
    stderr: () => stderr,
    write: (text) => void input.write(text),
    end: () => void input.end(),
    exited,
    warnings,
  };
}

/**
 * Runs the program with `args` (and `env`), connects the test client to it for the length of
 * `op`, then ends its input as an editor that quits does. Checks what `withBinClient` checks of
 * the bin: it ended with status 0, wrote nothing but JSON-RPC, no stack trace in its log and no
 * warning.
 */
export async function withProgramClient<T>(
  args: readonly string[],
  testClient: TestClient,
  op: (agent: ClientContext, program: ProgramRun) => Promise<T>,
  env: NodeJS.ProcessEnv = {},
): Promise<{ result: T; code: number; program: ProgramRun }> {
  const program = startProgram(args, env);
  let result: T;
  try {
    result = await testClient.app.connectWith(program.stream, (agent) => op(agent, program));
  } catch (error) {
    program.end();
    throw new Error(`the client failed; the agent's log was:\n${program.stderr()}`, {
      cause: error,
    });
  }
  program.end();
  const code = await program.exited;
  expect(code, program.stderr()).toBe(0);
  for (const line of program.lines.all) jsonRpcLine(line);
  expect(hasStackTrace(program.stderr()), program.stderr()).toBe(false);
  // Such as MaxListenersExceededWarning: one listener per session on a shared signal.
  expect(program.stderr()).not.toMatch(/Warning/);
  expect(program.warnings.map(String)).toEqual([]);
  return { result, code, program };
}
