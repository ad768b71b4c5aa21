export {
  type LineReader,
  lineReaderFor,
  type ReadLineOptions,
} from './question-ui/line-mode/line-reader.js';
export {
  createReadlineProvider,
  type ReadlineProvider,
  type ReadlineProviderMode,
  type ReadlineProviderOptions,
} from './question-ui/readline-provider.js';
export {
  FAILED_TURN_EXIT_CODE,
  INTERRUPTED_EXIT_CODE,
  type InterruptSource,
  runTerminalAgent,
  type TerminalAgentOptions,
} from './terminal-agent/terminal-agent.js';
export { type NeutralizeTextOptions, neutralizeText } from './text/neutralize-text.js';
