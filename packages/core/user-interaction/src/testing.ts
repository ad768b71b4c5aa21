export {
  createScriptedProvider,
  type HeldQuestion,
  type ScriptedAnswer,
  type ScriptedProvider,
  type ScriptedProviderOptions,
} from './testing/scripted-provider.js';
