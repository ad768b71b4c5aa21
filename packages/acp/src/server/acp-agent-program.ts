import { type AgentProgram, DEMO_WORKSPACE_FILES, sessionStoreFor } from 'dsh-agent/command-line';
import { createScratchFolder } from 'dsh-tools';
import { commandWorkspaceTools, permissionFlagsStatus } from 'dsh-tools/command-line';
import { packageAgentInfo } from '../agent-info.js';
import { acpStdioStream } from '../stdio/acp-stdio-stream.js';
import { serveAcpAgent } from './acp-agent-server.js';
import { HELP_TEXT } from './help-text.js';

/** Where the program writes: its log lines (stderr in the bin) and its help. */
export interface AcpAgentProgramOptions {
  /** Writes one line for the person; must not throw. */
  readonly log: (line: string) => void;
  /** Where `--help`, `--version` and `--permissions` write: stdout, unless the editor's. */
  readonly stdout?: NodeJS.WritableStream;
}

/**
 * The `dsh-acp` program: its flags, texts and what it serves, for `runAgentProgram` (the bin
 * passes it to `startAgentProgram`; tests run it in-process).
 */
export function acpAgentProgram({
  log,
  stdout = process.stdout,
}: AcpAgentProgramOptions): AgentProgram {
  return {
    name: 'dsh-acp',
    helpText: HELP_TEXT,
    version: packageAgentInfo().version,
    usageHint: '(see dsh-acp --help)',
    booleanFlags: ['questions-as-permissions'],
    say: log,
    async run(command, resolved) {
      const demo = resolved.kind === 'demo';
      /** The workspace tools and policy of a session's folder; the demo's is a scratch folder. */
      const toolsFor = async (cwd: string) => {
        const folder = demo ? createScratchFolder(DEMO_WORKSPACE_FILES).folder : cwd;
        if (demo) log(`the demo works in a scratch folder, ${folder}, never in ${cwd}`);
        return commandWorkspaceTools(command, folder);
      };
      // The rules are checked now, though each session opens its own workspace.
      const usageHint = '(see dsh-acp --help)';
      const stopped = await permissionFlagsStatus(command, { say: log, usageHint, stdout });
      if (stopped !== undefined) return stopped;
      const sessionStore = sessionStoreFor(command);
      log(`serving ${resolved.description} over ACP on stdin/stdout`);
      log(
        sessionStore === undefined
          ? 'conversations are kept in memory only (--no-history)'
          : `conversations are saved in ${sessionStore.dir}`,
      );
      if (process.stdin.isTTY) {
        log('stdin is a terminal: this program is started by an editor (see dsh-acp --help)');
      }
      const { questionTimeoutMs, flags } = command;
      const server = serveAcpAgent(acpStdioStream({ log }), {
        model: resolved.model,
        questionsAsPermissions: flags.has('questions-as-permissions'),
        ...(questionTimeoutMs !== undefined && { questionTimeoutMs }),
        ...(sessionStore !== undefined && { sessionStore }),
        toolsFor,
        log,
      });
      await server.done;
      return 0;
    },
  };
}
