// `dsh-agent/command-line`: what the two programs share (the flags, the program skeleton, the
// model the flags choose, the state folder they name and its one rule for files), for a program
// of your own built the same way. The agent itself is the root's.
export {
  type AgentCommand,
  type AgentCommandLineOptions,
  isUsageError,
  PERMISSION_MODES,
  type PermissionMode,
  parseAgentCommandLine,
  parseDuration,
  SANDBOX_CHOICES,
  type SandboxChoice,
  UsageError,
} from './command-line/agent-command-line.js';
export { AGENT_FLAGS_HELP } from './command-line/agent-flags-help.js';
export {
  COMMAND_ENV,
  type ProgramCommand,
  programCommand,
} from './command-line/program-command.js';
export {
  DEMO_DESCRIPTION,
  type ResolvedModel,
  type ResolveModelOptions,
  resolveModel,
} from './command-line/resolve-model.js';
export {
  type AgentProgram,
  type AgentProgramContext,
  type AgentRunCommand,
  internalErrorLine,
  runAgentProgram,
  startAgentProgram,
} from './command-line/run-agent-program.js';
export { sessionStoreFor, stateDirFor } from './command-line/session-store-for.js';
export { inertText } from './files/inert-text.js';
export {
  checkOwnFolder,
  isOwnFileError,
  OWN_FILE_FLAGS,
  OwnFileError,
  openOwnFile,
  ownFileProblem,
} from './files/own-file.js';
export { isThinkingLevel, THINKING_LEVELS } from './models/thinking.js';
export { DEMO_WORKSPACE_FILES } from './script/demo-script.js';
