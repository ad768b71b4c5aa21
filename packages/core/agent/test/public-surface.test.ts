import { describe, expect, it } from 'vitest';
import * as commandLine from '../src/command-line.js';
import * as root from '../src/index.js';
import * as testing from '../src/testing.js';

// What a harness author can import is a promise we keep: a name added to a list below is a
// decision (its README documents it), not a side effect of exporting a helper for another file.
describe('the public surface', () => {
  // Not every name is in the README yet (createAskUserQuestionAgentTool, ASK_EVERY_CALL,
  // validateScript, compareSessionInfos and formatDuration are not): the title claims no more.
  it('the root exports this list and nothing else: a new export is a decision', () => {
    expect(Object.keys(root).sort()).toEqual([
      'AGENT_ERROR_CODES',
      'API_KEY_VARIABLES',
      'ASK_EVERY_CALL',
      'AgentError',
      'DEEPSEEK_MODELS',
      'DEFAULT_INSTRUCTIONS',
      'DEFAULT_MAX_STEPS',
      'DEMO_SCRIPT',
      'MODEL_ERROR_CODES',
      'ModelError',
      'SESSION_ERROR_CODES',
      'SessionError',
      'checkAgentOptions',
      'compareSessionInfos',
      'createAgent',
      'createAskUserQuestionAgentTool',
      'createOpenAICompatibleModel',
      'createScriptedModel',
      'defaultStateDir',
      'errorResult',
      'formatDuration',
      'isAgentError',
      'isModelError',
      'isSessionError',
      'loadScript',
      'openSessionStore',
      'replayConversation',
      'toolCallIdOf',
      'validateScript',
    ]);
  });

  it('`dsh-agent/command-line` exports its own part and nothing else', () => {
    expect(Object.keys(commandLine).sort()).toEqual([
      'AGENT_FLAGS_HELP',
      'COMMAND_ENV',
      'DEMO_DESCRIPTION',
      'DEMO_WORKSPACE_FILES',
      'OWN_FILE_FLAGS',
      'OwnFileError',
      'PERMISSION_MODES',
      'SANDBOX_CHOICES',
      'THINKING_LEVELS',
      'UsageError',
      'checkOwnFolder',
      'inertText',
      'internalErrorLine',
      'isOwnFileError',
      'isThinkingLevel',
      'isUsageError',
      'openOwnFile',
      'ownFileProblem',
      'parseAgentCommandLine',
      'parseDuration',
      'programCommand',
      'resolveModel',
      'runAgentProgram',
      'sessionStoreFor',
      'startAgentProgram',
      'stateDirFor',
    ]);
  });

  it('`dsh-agent/testing` exports its own part and nothing else', () => {
    expect(Object.keys(testing).sort()).toEqual([
      'AGENT_PROGRAM_FLAGS',
      'CURRENT_MODELS',
      'REASONING_NOT_PASSED_BACK',
      'STAND_IN_QUESTION',
      'approvedCall',
      'builtBin',
      'chunk',
      'closedPort',
      'controlledModel',
      'defaultReply',
      'deferred',
      'recordingModel',
      'removeTemporaryStateFolders',
      'removeWorkFolders',
      'savedSessionText',
      'sessionFileLines',
      'sessionFilePath',
      'startChatServer',
      'startDeepSeekStandIn',
      'stepModel',
      'temporaryFolder',
      'temporaryStateFolder',
      'testStateHome',
      'textChunks',
      'textStep',
      'untilAborted',
      'workFolder',
      'writeScriptFile',
    ]);
  });

  it('the root stays small enough to read in a minute', () => {
    expect(Object.keys(root).length).toBeLessThanOrEqual(32);
  });
});
