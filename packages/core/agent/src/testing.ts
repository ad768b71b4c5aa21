export { type ApprovedCallOptions, approvedCall } from './testing/approved-call.js';
export {
  type BuiltBin,
  builtBin,
  savedSessionText,
  type TestStateHome,
  testStateHome,
} from './testing/built-bin.js';
export {
  type ChatReply,
  chunk,
  closedPort,
  type RecordedRequest,
  startChatServer,
  textChunks,
} from './testing/chat-server.js';
export { controlledModel } from './testing/controlled-model.js';
export {
  type DeepSeekStandInOptions,
  defaultReply,
  STAND_IN_QUESTION,
  type StandInReply,
  type StandInRequest,
  type StandInTurn,
  startDeepSeekStandIn,
} from './testing/deepseek-stand-in.js';
export { CURRENT_MODELS, REASONING_NOT_PASSED_BACK } from './testing/deepseek-stand-in-request.js';
export { type Deferred, deferred } from './testing/deferred.js';
export { AGENT_PROGRAM_FLAGS } from './testing/program-flags.js';
export { writeScriptFile } from './testing/script-file.js';
export {
  removeTemporaryStateFolders,
  removeWorkFolders,
  sessionFileLines,
  sessionFilePath,
  type TemporaryFolder,
  temporaryFolder,
  temporaryStateFolder,
  workFolder,
} from './testing/state-folder.js';
export {
  type ModelStep,
  type RecordingModel,
  recordingModel,
  stepModel,
  textStep,
  untilAborted,
} from './testing/step-model.js';
