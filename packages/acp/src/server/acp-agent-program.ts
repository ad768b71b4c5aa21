import type { Readable, Writable } from 'node:stream';
import { type AgentProgram, DEMO_WORKSPACE_FILES, sessionStoreFor } from 'dsh-agent/command-line';
import { trustedServerNames } from 'dsh-mcp';
import { createCommandSandbox, probeSandbox, sandboxStatusLine } from 'dsh-tools';
import {
  commandWorkspaceTools,
  demoWorkspaceTools,
  permissionFlagsStatus,
} from 'dsh-tools/command-line';
import { packageAgentInfo } from '../agent-info.js';
import { acpStdioStream } from '../stdio/acp-stdio-stream.js';
import { serveAcpAgent } from './acp-agent-server.js';
import { HELP_TEXT } from './help-text.js';
import { toolsPerFolder } from './tools-per-folder.js';

/** Where the program writes: its log lines (stderr in the bin) and its help. */
export interface AcpAgentProgramOptions {
  /** Writes one line for the person; must not throw. */
  readonly log: (line: string) => void;
  /** Where `--help`, `--version` and `--permissions` write: stdout, unless the editor's. */
  readonly stdout?: NodeJS.WritableStream;
  /** Where the editor's messages arrive and this agent's go: stdin and stdout, unless given. */
  readonly stdio?: { readonly input: Readable; readonly output: Writable };
  /** Where the default state folder is read from (`XDG_STATE_HOME`): `process.env`, unless given. */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * The `dsh-acp` program: its flags, texts and what it serves, for `runAgentProgram` (the bin
 * passes it to `startAgentProgram`; tests run it in-process).
 */
export function acpAgentProgram({
  log,
  stdout = process.stdout,
  stdio,
  env = process.env,
}: AcpAgentProgramOptions): AgentProgram {
  return {
    name: 'dsh-acp',
    helpText: HELP_TEXT,
    version: packageAgentInfo().version,
    usageHint: '(see dsh-acp --help)',
    booleanFlags: ['questions-as-permissions'],
    valueFlags: ['mcp-trust-read-only'],
    say: log,
    async run(command, resolved) {
      const demo = resolved.kind === 'demo';
      const allowSandboxed = command.permissionMode === 'allow-sandboxed';
      /** The workspace tools and policy of a session's folder; the demo's is a scratch folder. */
      const openFolder = async (folder: string) => {
        const tools = await commandWorkspaceTools(command, folder, env);
        return { ...tools, sandboxStatus: sandboxStatusLine(tools.sandbox, allowSandboxed) };
      };
      // The demo gives each session a scratch folder of its own; sessions in one real folder
      // share its tools and policy.
      // Its "always" rules go to a scratch state folder too: the demo leaves nothing in the
      // person's state but its sessions.
      const toolsFor = demo
        ? async (cwd: string) => {
            const scratch = await demoWorkspaceTools(command, DEMO_WORKSPACE_FILES, env);
            log(`the demo works in a scratch folder, ${scratch.folder}, never in ${cwd}`);
            return {
              ...scratch,
              sandboxStatus: sandboxStatusLine(scratch.sandbox, allowSandboxed),
            };
          }
        : toolsPerFolder(openFolder);
      // The rules are checked now, though each folder's workspace opens at its first session.
      const usageHint = '(see dsh-acp --help)';
      const stopped = await permissionFlagsStatus(command, { say: log, usageHint, stdout, env });
      if (stopped !== undefined) return stopped;
      const sessionStore = sessionStoreFor(command, env);
      log(`serving ${resolved.description} over ACP on stdin/stdout`);
      // Probed once for the process: each session's folder uses the same answer.
      const sandbox = createCommandSandbox({
        choice: command.sandbox,
        status: await probeSandbox({ env }),
      });
      log(sandboxStatusLine(sandbox, allowSandboxed));
      log(
        sessionStore === undefined
          ? 'conversations are kept in memory only (--no-history)'
          : `conversations are saved in ${sessionStore.dir}`,
      );
      if (stdio === undefined && process.stdin.isTTY) {
        log('stdin is a terminal: this program is started by an editor (see dsh-acp --help)');
      }
      const { questionTimeoutMs, flags, values } = command;
      const server = serveAcpAgent(acpStdioStream({ ...stdio, log }), {
        model: resolved.model,
        questionsAsPermissions: flags.has('questions-as-permissions'),
        mcpTrustReadOnly: trustedServerNames(values.get('mcp-trust-read-only')),
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
