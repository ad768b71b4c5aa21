import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { StoredSession } from 'dsh-agent';
import {
  type AgentProgram,
  DEMO_WORKSPACE_FILES,
  internalErrorLine,
  sessionStoreFor,
  stateDirFor,
} from 'dsh-agent/command-line';
import type { McpServerConfig } from 'dsh-mcp';
import { sandboxStatusLine, type WorkspaceAgentTools } from 'dsh-tools';
import {
  commandWorkspaceTools,
  type DemoWorkspace,
  demoWorkspaceTools,
  permissionFlagsStatus,
  workspaceProblemStatus,
} from 'dsh-tools/command-line';
import { packageVersion } from '../package-version.js';
import { ENDING_SIGNALS, signalExitCode } from '../question-ui/terminal/ending-signals.js';
import { restoreTerminal } from '../question-ui/terminal/restore-terminal.js';
import { helpText } from './help-text.js';
import { NOTIFY_MODES, type NotifyMode } from './notify/waiting-notifier.js';
import type { InterruptSource } from './terminal-agent.js';
import { chooseSession } from './terminal-session.js';

/** `--notify` (else `DSH_NOTIFY`) as a mode, `auto` when unset; `undefined` for anything else. */
function notifyMode(given: string | undefined): NotifyMode | undefined {
  if (given === undefined || given === '') return 'auto';
  return (NOTIFY_MODES as readonly string[]).includes(given) ? (given as NotifyMode) : undefined;
}

const PROGRAM = 'dsh-stdio-agent';

/**
 * The folder the agent works in: `--workspace DIR` (relative to the folder it was started in),
 * else that folder; `undefined` when DIR is not a folder. `pnpm start` runs in the clone, so
 * this is how a person points it at a project of their own.
 */
function workspaceFolder(given: string | undefined, startedIn: string): string | undefined {
  if (given === undefined) return startedIn;
  const folder = resolve(startedIn, given);
  try {
    return given.trim() !== '' && statSync(folder).isDirectory() ? folder : undefined;
  } catch {
    return undefined;
  }
}
/** `--mcp-trust-read-only`'s names, read by dsh-mcp, loaded only when there are servers. */
async function trustedMcpServers(given: string | undefined): Promise<readonly string[]> {
  return (await import('dsh-mcp')).trustedServerNames(given);
}

// Node's 500 ms makes Esc (decline a question) feel slow; 100 ms still keeps arrow keys whole
// over a remote link.
const ESCAPE_CODE_TIMEOUT_MS = 100;

/** A line for the person on stderr, after the program's name. */
function sayOnStderr(line: string): void {
  process.stderr.write(`${PROGRAM}: ${line}\n`);
}

/**
 * Gives the terminal back on every way out: the end, a signal that ends the program, a crash.
 * A plain terminal was never drawn on: it gets no escape sequence at all.
 */
function restoreOnExit(plain: boolean, say: (line: string) => void): void {
  const restore = () => restoreTerminal(process.stdin, process.stdout, !plain);
  process.on('exit', restore);
  for (const signal of ENDING_SIGNALS) {
    // SIGINT is the agent's Ctrl+C (`interrupts`): it cancels a turn, or quits at the prompt.
    if (signal === 'SIGINT') continue;
    // Left to its default action, the signal would end the process with no `exit` event,
    // raw mode still on: exit instead, with the status the signal would have given.
    process.on(signal, () => process.exit(signalExitCode(signal)));
  }
  process.on('uncaughtException', (error) => {
    restore();
    say(internalErrorLine(error));
    process.exit(1);
  });
}

/** Where the program writes its lines for the person: stderr in the bin. */
export interface TerminalAgentProgramOptions {
  readonly say?: (line: string) => void;
  /**
   * The program's streams, environment and folder in place of the process's, to run it
   * in-process (tests): the process's own exit, signal and crash handlers are then left alone.
   */
  readonly io?: TerminalAgentProgramIo;
}

/** What the program reads and writes in place of the process's. */
export interface TerminalAgentProgramIo {
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
  /** Where the status line goes (stderr in the bin). */
  readonly errorOutput: NodeJS.WritableStream;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Where `SIGINT` comes from (the process, in the bin): none by default. */
  readonly interrupts?: InterruptSource;
}

/**
 * The `dsh-stdio-agent` program: its flags, texts and the agent it runs, for `runAgentProgram`
 * (the bin passes it to `startAgentProgram`; tests run it in-process).
 */
export function terminalAgentProgram({
  say = sayOnStderr,
  io,
}: TerminalAgentProgramOptions = {}): AgentProgram {
  return {
    name: PROGRAM,
    helpText,
    version: packageVersion(),
    booleanFlags: ['no-color', 'plain', 'show-thinking', 'continue', 'sessions'],
    valueFlags: [
      'resume',
      'notify',
      'notify-command',
      'workspace',
      'mcp-config',
      'mcp-trust-read-only',
      'project-mcp',
    ],
    say,
    async run(command, resolved, invoked) {
      const usageHint = `(try ${invoked.withFlags('--help')})`;
      const { questionTimeoutMs, flags } = command;
      const env = io?.env ?? process.env;
      const cwd = workspaceFolder(command.values.get('workspace'), io?.cwd ?? process.cwd());
      if (cwd === undefined) {
        say(`--workspace needs a folder that exists ${usageHint}`);
        return 2;
      }
      const stdout = io?.output ?? process.stdout;
      const plain = flags.has('plain') || env.TERM === 'dumb';
      // From here on, every exit shows the cursor, whatever state the terminal was found in (a
      // program killed with -9 before this one leaves it hidden).
      if (io === undefined) restoreOnExit(plain, say);
      const stopped = await permissionFlagsStatus(command, { say, usageHint, stdout, cwd, env });
      if (stopped !== undefined) return stopped;
      // The session and its question UI load while the sandbox is probed (a child process the
      // program would otherwise only wait for): the first question comes that much sooner.
      const terminalAgent = import('./terminal-agent.js');
      terminalAgent.catch(() => {}); // Awaited below, unless the program ends before.
      // The demo works in a scratch folder of its own, never in the person's files, and keeps
      // its "always" rules in a scratch state folder: it leaves nothing but its session.
      const demo = resolved.kind === 'demo';
      let workspace: WorkspaceAgentTools;
      let scratch: DemoWorkspace | undefined;
      try {
        if (demo) workspace = scratch = await demoWorkspaceTools(command, DEMO_WORKSPACE_FILES);
        else workspace = await commandWorkspaceTools(command, cwd, env);
      } catch (error) {
        return workspaceProblemStatus(error, { say, usageHint });
      }
      const folder = scratch?.folder ?? cwd;
      /** The session chosen, the program's to close until `runTerminalAgent` takes it. */
      let chosen: StoredSession | undefined;
      try {
        const context = { say, stdout, cwd, usageHint };
        const choice = await chooseSession(command, sessionStoreFor(command, env), context);
        if (choice.kind === 'exit') return choice.code;
        // A usage error found below leaves nothing behind: a new session's empty file and lock
        // are removed, a resumed one's lock is given back (`close`, in `finally`).
        chosen = choice.session;
        const notify = notifyMode(command.values.get('notify') ?? env.DSH_NOTIFY);
        if (notify === undefined) {
          say(`--notify takes ${NOTIFY_MODES.join(', ')} ${usageHint}`);
          return 2;
        }
        const mcpConfig = command.values.get('mcp-config');
        let mcpServers: McpServerConfig[] | undefined;
        if (mcpConfig !== undefined) {
          // dsh-mcp loads when a flag or the project asks for servers: the first question of a
          // session without any does not wait for it (see bench/stdio-agent-startup.bench.ts).
          const { isMcpError, readMcpConfig } = await import('dsh-mcp');
          try {
            mcpServers = readMcpConfig(await readFile(resolve(cwd, mcpConfig), 'utf8'), {
              variables: env,
            });
          } catch (error) {
            const why = isMcpError(error) ? error.message : `cannot read ${mcpConfig}`;
            say(`--mcp-config: ${why} ${usageHint}`);
            return 2;
          }
        }
        if (!demo) {
          // The workspace's .mcp.json starts only once the person trusted it as it is.
          const { projectMcpServers } = await import('./project-mcp.js');
          const project = await projectMcpServers({
            workspace: folder,
            stateDir: stateDirFor(command, env),
            trust: command.values.get('project-mcp'),
            env,
            taken: new Set((mcpServers ?? []).map((server) => server.name)),
            say,
          });
          if ('exit' in project) return project.exit;
          if (project.configs.length > 0) mcpServers = [...(mcpServers ?? []), ...project.configs];
        }
        const notifyCommand = command.values.get('notify-command');
        if (notifyCommand !== undefined && notifyCommand.trim() === '') {
          say(`--notify-command needs a command ${usageHint}`);
          return 2;
        }
        const mcp =
          mcpServers === undefined
            ? undefined
            : {
                mcpServers,
                mcpTrustReadOnly: await trustedMcpServers(
                  command.values.get('mcp-trust-read-only'),
                ),
              };
        const { runTerminalAgent } = await terminalAgent;
        // From here on the terminal agent closes the session, however it ends.
        chosen = undefined;
        return await runTerminalAgent({
          model: resolved.model,
          modelDescription: resolved.description,
          workspaceDescription: demo
            ? `${folder} (a scratch folder made for the demo: your own files are never touched)`
            : folder,
          sandboxDescription: sandboxStatusLine(
            workspace.sandbox,
            command.permissionMode === 'allow-sandboxed',
          ),
          ...(questionTimeoutMs !== undefined && { questionTimeoutMs }),
          ...(flags.has('no-color') && { color: false }),
          plain,
          showThinking: flags.has('show-thinking'),
          escapeCodeTimeout: ESCAPE_CODE_TIMEOUT_MS,
          command: invoked,
          ...(io === undefined
            ? { interrupts: process }
            : {
                input: io.input,
                output: io.output,
                errorOutput: io.errorOutput,
                env,
                ...(io.interrupts !== undefined && { interrupts: io.interrupts }),
              }),
          notify,
          ...(notifyCommand !== undefined && { notifyCommand }),
          cwd: folder,
          tools: workspace.tools,
          permissions: workspace.permissions,
          rulesFile: demo
            ? `${workspace.permissions.files.workspace} (the demo's own: removed when it ends)`
            : workspace.permissions.files.workspace,
          ...mcp,
          ...(choice.session !== undefined && { session: choice.session }),
        });
      } finally {
        await chosen?.close();
        // The scratch folder goes once the program ends (at the latest, when the process exits).
        scratch?.remove();
      }
    },
  };
}
