export { type LineReader, lineReaderFor, type ReadLineOptions } from './line-reader.js';
export { type NeutralizeTextOptions, neutralizeText } from './neutralize-text.js';
export {
  createReadlineProvider,
  type ReadlineProvider,
  type ReadlineProviderMode,
  type ReadlineProviderOptions,
} from './readline-provider.js';
export {
  INTERRUPTED_EXIT_CODE,
  type InterruptSource,
  runTerminalAgent,
  type TerminalAgentOptions,
} from './terminal-agent.js';
