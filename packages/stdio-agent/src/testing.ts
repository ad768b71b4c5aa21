// `dsh-stdio-agent/testing`: fake terminal streams, read back through a terminal emulator, for
// testing a question UI (this one, or yours) as a person would see it. Needs `@xterm/headless`.
export {
  createFakeTerminal,
  createPipes,
  type FakeInput,
  type FakeOutput,
  FakeTerminal,
  type FakeTerminalOptions,
  KEYS,
  type Pipes,
  TEST_ENV,
} from './testing/fake-terminal.js';
