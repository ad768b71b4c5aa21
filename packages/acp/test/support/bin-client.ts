import type { ClientContext } from '@agentclientprotocol/sdk';
import { expect } from 'vitest';
import type { TestClient } from '../../src/testing.js';
import {
  type BinProcess,
  type Exit,
  endInput,
  hasStackTrace,
  jsonRpcLine,
  startBin,
} from './bin-process.js';

/**
 * Runs the built bin with `args` (and `env`), connects the test client to it over its real stdin and
 * stdout for the length of `op`, then ends its input as an editor that quits does. Checks
 * that it exited with 0, wrote nothing but JSON-RPC to stdout, and no stack trace or warning
 * to stderr.
 */
export async function withBinClient<T>(
  args: readonly string[],
  testClient: TestClient,
  op: (agent: ClientContext, bin: BinProcess) => Promise<T>,
  env: NodeJS.ProcessEnv = {},
): Promise<{ result: T; exit: Exit; bin: BinProcess }> {
  const bin = startBin(args, env);
  let result: T;
  try {
    result = await testClient.app.connectWith(bin.stream, (agent) => op(agent, bin));
  } catch (error) {
    bin.child.kill();
    throw new Error(`the client failed; the agent's stderr was:\n${bin.stderr()}`, {
      cause: error,
    });
  }
  const exit = await endInput(bin);
  expect(exit, bin.stderr()).toEqual({ code: 0, signal: null });
  for (const line of bin.lines.all) jsonRpcLine(line);
  expect(hasStackTrace(bin.stderr()), bin.stderr()).toBe(false);
  // Such as MaxListenersExceededWarning: one listener per session on a shared signal.
  expect(bin.stderr()).not.toMatch(/Warning/);
  return { result, exit, bin };
}
