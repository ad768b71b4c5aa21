export {
  createScriptedProvider,
  type HeldQuestion,
  type ScriptedAnswer,
  type ScriptedItemAnswer,
  type ScriptedProvider,
  type ScriptedProviderOptions,
} from './testing/scripted-provider.js';
