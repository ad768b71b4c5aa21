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
export { type NeutralizeTextOptions, neutralizeText } from './text/neutralize-text.js';
