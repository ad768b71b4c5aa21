// `dsh-user-interaction/host`: what the agent loop (`dsh-agent`) and the workspace tools
// (`dsh-tools`) share about the machine they run on, so that neither depends on the other: the
// one rule for a file of dsh's own state (and how one is read and written whole), and the
// variables that hold the agent's keys.
export { API_KEY_VARIABLES, type ApiKeyVariable } from './host/api-key-variables.js';
export { currentUser, OWN_FILE_FLAGS, ownFileProblem } from './host/own-file-check.js';
export { readOpenFile, writePrivateFile } from './host/private-file.js';
