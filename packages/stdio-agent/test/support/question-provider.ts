import { createInterface, type Interface } from 'node:readline';
import {
  createReadlineProvider,
  type LineReader,
  lineReaderFor,
  type ReadlineProvider,
} from '../../src/index.js';
import {
  createFakeTerminal,
  createPipes,
  type FakeTerminal,
  type FakeTerminalOptions,
  type Pipes,
  TEST_ENV,
} from '../../src/testing.js';

/** Options of `providerOnPipes`: the provider's that tests vary. */
export interface ProviderOnPipesOptions {
  /** Default `TEST_ENV`. */
  readonly env?: NodeJS.ProcessEnv;
  /** The clock of a question's time limit: passed on when given; otherwise the provider's default. */
  readonly now?: () => number;
}

/** Options of `providerOnTerminal`: the fake terminal's, and the provider's that tests vary. */
export interface ProviderOnTerminalOptions extends FakeTerminalOptions, ProviderOnPipesOptions {
  /** Passed on when given; otherwise the provider's default. */
  readonly escapeCodeTimeout?: number;
}

/** A readline provider asking on a fresh fake terminal (the interactive menu). */
export function providerOnTerminal(options: ProviderOnTerminalOptions = {}): {
  terminal: FakeTerminal;
  provider: ReadlineProvider;
} {
  const { env = TEST_ENV, now, escapeCodeTimeout, ...terminalOptions } = options;
  const terminal = createFakeTerminal(terminalOptions);
  const provider = createReadlineProvider({
    input: terminal.input,
    output: terminal.output,
    env,
    ...(now === undefined ? {} : { now }),
    ...(escapeCodeTimeout === undefined ? {} : { escapeCodeTimeout }),
  });
  return { terminal, provider };
}

/** A readline provider asking in line mode on fresh plain pipes. */
export function providerOnPipes(options: ProviderOnPipesOptions = {}): {
  pipes: Pipes;
  provider: ReadlineProvider;
} {
  const { env = TEST_ENV, now } = options;
  const pipes = createPipes();
  const provider = createReadlineProvider({
    input: pipes.input,
    output: pipes.output,
    env,
    ...(now === undefined ? {} : { now }),
  });
  return { pipes, provider };
}

/**
 * A readline provider in line mode on an Interface the host shares, over fresh plain pipes; the
 * host reads its lines with `host`.
 */
export function providerOnSharedLines(): {
  pipes: Pipes;
  readline: Interface;
  host: LineReader;
  provider: ReadlineProvider;
} {
  const pipes = createPipes();
  const readline = createInterface({ input: pipes.input, terminal: false });
  const host = lineReaderFor(readline);
  const provider = createReadlineProvider({ readline, output: pipes.output, env: TEST_ENV });
  return { pipes, readline, host, provider };
}
