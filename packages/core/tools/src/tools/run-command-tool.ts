import { spawn } from 'node:child_process';
import type { SandboxConfinement } from 'dsh-user-interaction';
import type { AgentTool } from 'dsh-user-interaction/agent-tool';
import { COMMAND_TOOL } from '../policy/permission-rule.js';
import { blockedNote } from '../sandbox/blocked-note.js';
import { commandEnvironment, withheldVariables } from '../sandbox/command-environment.js';
import { type CommandSandbox, createCommandSandbox } from '../sandbox/command-sandbox.js';
import { missingStartUpFiles, removeCreated } from '../sandbox/start-up-files.js';
import { WorkspaceToolError } from '../tool-error.js';
import type { Workspace } from '../workspace/workspace.js';
import { DRAIN_MS, drained, KeptOutput } from './command-output.js';
import { declareTool, errorsSentence, parametersSchema, readArguments } from './tool-parameters.js';

export const COMMAND_TIME_LIMITS = { defaultSeconds: 120, maxSeconds: 600 } as const;
/** How long a process group has between SIGTERM and SIGKILL. */
const GRACE_MS = 2_000;
/**
 * The longest command, in bytes: the system passes no longer argument to a program (Linux's
 * `MAX_ARG_STRLEN`, 32 pages, its final NUL included). A longer one would be approved, then fail.
 */
export const LONGEST_COMMAND_BYTES = 128 * 1024 - 1;

/** Process groups still running, ended synchronously if the program exits first. */
const running = new Set<number>();
let exitHook = false;

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone.
  }
}

function watchExit(): void {
  if (exitHook) return;
  exitHook = true;
  process.on('exit', () => {
    for (const pid of running) killGroup(pid, 'SIGKILL');
  });
}

const DESCRIPTION = `Runs a command with bash -c in the workspace folder, and returns its exit status and its output (standard output and error together; long output keeps its start and its end). It has no input: a command that waits for a person gets nothing. A time limit (timeout, in seconds, default ${COMMAND_TIME_LIMITS.defaultSeconds}, at most ${COMMAND_TIME_LIMITS.maxSeconds}) ends it and everything it started. The person approves each command before it runs, unless a rule allows it. A rule can allow only a plain command line: simple commands of literal words ('…', "…" without $) joined by &&, ||, ; and |; anything else (a $variable or $( ) substitution, a glob, a heredoc, a redirection to a file, a program's own options that run code) always asks, so write commands plainly where you can. A non-zero exit status is a result, not an error. The agent's own API keys are not in its environment.`;

const SANDBOX_DESCRIPTION = ` It runs in a sandbox: it can write only the workspace and a private /tmp, has no network, cannot read ~/.ssh, keys or the agent's state, and nothing it starts outlives it. When the sandbox blocks what a command needs, the result says so; then call again with sandbox: "network" (the same sandbox with the network) or "none" (outside the sandbox): the person is always asked for that, and may refuse.`;

/** `run_command`'s parameters and errors. */
export const RUN_COMMAND = declareTool({
  name: 'run_command',
  parameters: {
    command: { kind: 'text', required: true, description: 'The command line, as bash -c runs it.' },
    timeout: {
      kind: 'count',
      minimum: 1,
      maximum: COMMAND_TIME_LIMITS.maxSeconds,
      unit: 'seconds',
      description: `Seconds before it is ended (default ${COMMAND_TIME_LIMITS.defaultSeconds}).`,
    },
    sandbox: {
      kind: 'choice',
      values: ['network', 'none'],
      description:
        'Leave out: the command runs in the sandbox. "network": the sandbox with the network; "none": outside the sandbox. Either is asked of the person every time; use it only after the sandbox blocked this command.',
    },
  },
  errors: {
    ARGUMENTS_INVALID: `an empty command, one holding a NUL or over ${LONGEST_COMMAND_BYTES} bytes, a bad timeout or sandbox`,
    PERMISSION_DENIED: 'the person or a rule did not allow it: it did not run',
    SANDBOX_UNAVAILABLE: 'the sandbox is required and cannot start: it did not run',
    SANDBOX_FAILED: 'the sandbox failed to start it: it did not run',
    TURN_CANCELLED: '',
  },
});

const ERRORS = ` ${errorsSentence(RUN_COMMAND.errors)}`;

/** Options of `createRunCommandTool`. */
export interface RunCommandToolOptions {
  /** The name the model calls it by (default `run_command`); give the policy the same `commandTool`. */
  readonly name?: string;
  /** The time limit of a command that sets none, in seconds (default 120). */
  readonly defaultTimeoutSeconds?: number;
  /** How commands run (see `createCommandSandbox`); default: no sandbox. */
  readonly sandbox?: CommandSandbox;
  /** Variables never passed to a command (default: the agent's own keys, `withheldVariables()`). */
  readonly withheld?: ReadonlySet<string>;
  /** The environment commands start from (default `process.env`), less `withheld`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** No sandbox: commands run as they always did. */
const NO_SANDBOX = createCommandSandbox({
  choice: 'auto',
  status: { available: false, problem: 'platform', reason: 'no sandbox', fix: 'none' },
});

/**
 * Marks a command that reaches further than the sandbox, in its title: the transcript and
 * editors show it. A sandboxed one has none: the status line said that commands are.
 */
const TITLE_MARKS: Record<SandboxConfinement, string> = {
  sandboxed: '',
  network: ' [sandbox + network]',
  none: ' [NOT sandboxed]',
};

/** `run_command` (or `options.name`): `bash -c` in the workspace, time-limited, output capped, its process group always ended. */
export function createRunCommandTool(
  workspace: Workspace,
  options: RunCommandToolOptions = {},
): AgentTool {
  const sandbox = options.sandbox ?? NO_SANDBOX;
  const withheld = options.withheld ?? withheldVariables();
  const name = options.name ?? COMMAND_TOOL;
  return {
    name,
    description: `${DESCRIPTION}${sandbox.active ? SANDBOX_DESCRIPTION : ''}${ERRORS}`,
    parameters: parametersSchema(RUN_COMMAND.parameters),
    title: (args) =>
      `Run ${String((args as { command?: unknown } | null)?.command ?? 'a command')}`,
    describe(args) {
      const { command, sandbox: widening } = readArguments({ ...RUN_COMMAND, name }, args);
      if (command.trim() === '')
        throw new WorkspaceToolError('`command` must not be empty.', 'ARGUMENTS_INVALID');
      // Refused before anyone is asked: no program can be given such a command to run.
      if (command.includes('\u0000'))
        throw new WorkspaceToolError(
          '`command` must not contain a NUL character.',
          'ARGUMENTS_INVALID',
        );
      if (Buffer.byteLength(command) > LONGEST_COMMAND_BYTES) {
        throw new WorkspaceToolError(
          `\`command\` is at most ${LONGEST_COMMAND_BYTES} bytes: write a script file and run it.`,
          'ARGUMENTS_INVALID',
        );
      }
      // Refused before anyone is asked: under --sandbox on without a sandbox, nothing runs.
      sandbox.requireAvailable();
      const confinement = sandbox.confinement(widening);
      const firstLine = command.trim().split('\n')[0] as string;
      const title = firstLine.length > 80 ? `${firstLine.slice(0, 79)}…` : firstLine;
      return {
        kind: 'execute',
        title: `Run ${title}${command.trim().includes('\n') ? ' …' : ''}${confinement === undefined ? '' : TITLE_MARKS[confinement.confinement]}`,
        locations: [{ path: workspace.root }],
        command: {
          command,
          cwd: workspace.root,
          ...(confinement !== undefined && { sandbox: confinement }),
        },
      };
    },
    async execute(args, context) {
      const approved = context.description?.command;
      if (approved === undefined)
        throw new WorkspaceToolError(
          'The command was not described before it ran.',
          'ARGUMENTS_INVALID',
        );
      const seconds =
        readArguments({ ...RUN_COMMAND, name }, args).timeout ??
        options.defaultTimeoutSeconds ??
        COMMAND_TIME_LIMITS.defaultSeconds;
      const { signal } = context;
      // What was approved decides: a description that says nothing runs in the sandbox if any.
      const confinement: SandboxConfinement =
        approved.sandbox?.confinement ?? (sandbox.active ? 'sandboxed' : 'none');
      const launch = sandbox.launch(approved.command, approved.cwd, workspace.root, confinement);
      const missing = launch.sandboxed ? missingStartUpFiles(workspace.root) : [];
      watchExit();
      const output = new KeptOutput();
      const child = spawn(launch.file, launch.args, {
        cwd: approved.cwd,
        // Never the person's terminal: a command that reads gets the end of its input. The
        // fourth pipe is bwrap's status: whether the command started at all.
        stdio: launch.sandboxed ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
        detached: true,
        env: commandEnvironment(options.env ?? process.env, withheld),
      });
      const pid = child.pid;
      if (pid !== undefined) running.add(pid);
      child.stdout?.on('data', (chunk: Buffer) => output.add(chunk));
      child.stderr?.on('data', (chunk: Buffer) => output.add(chunk));
      const statusPipe = launch.sandboxed
        ? (child.stdio[3] as NodeJS.ReadableStream & { destroy(): void })
        : null;
      let started = !launch.sandboxed;
      let statusText = '';
      statusPipe?.on('data', (chunk: Buffer) => {
        if (statusText.length < 4096) statusText += chunk.toString('utf8');
        if (statusText.includes('"child-pid"')) started = true;
      });
      let ended: string | undefined;
      let graceTimer: NodeJS.Timeout | undefined;
      const end = (why: string): void => {
        if (ended !== undefined || pid === undefined) return;
        ended = why;
        killGroup(pid, 'SIGTERM');
        graceTimer = setTimeout(() => killGroup(pid, 'SIGKILL'), GRACE_MS);
      };
      const limit = setTimeout(
        () => end(`it ran longer than its time limit of ${seconds} s`),
        seconds * 1000,
      );
      const onAbort = (): void => end('the turn was cancelled');
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) onAbort();
      const exit = await new Promise<{ code: number | null; signal: string | null; error?: Error }>(
        (resolve) => {
          child.once('error', (error) => resolve({ code: null, signal: null, error }));
          child.once('exit', (code, exitSignal) => resolve({ code, signal: exitSignal }));
        },
      );
      clearTimeout(limit);
      signal.removeEventListener('abort', onAbort);
      // Whatever it left running in the background ends with it.
      if (pid !== undefined) {
        killGroup(pid, 'SIGKILL');
        running.delete(pid);
      }
      if (graceTimer !== undefined) clearTimeout(graceTimer);
      // 'exit' may come before the last output is read: read to the end of both pipes. They end
      // at once now that the group is gone, but for a process that left it (`setsid cmd &`)
      // and holds them open: that one is not waited for longer than `DRAIN_MS`.
      await drained([child.stdout, child.stderr, statusPipe], DRAIN_MS);
      // Everything the command started has ended (its PID namespace is gone).
      const removed = removeCreated(workspace.root, missing);
      if (exit.error !== undefined) {
        throw new WorkspaceToolError(
          `The command could not start (${(exit.error as { code?: string }).code ?? exit.error.message}).`,
          launch.sandboxed ? 'SANDBOX_FAILED' : 'ARGUMENTS_INVALID',
        );
      }
      // Never a silent pass: a sandbox that did not start the command is a failure, not exit 1.
      if (!started && ended === undefined) {
        throw new WorkspaceToolError(
          `The sandbox failed to start the command, so it did not run: ${output.text().trim() || `bwrap exit status ${exit.code}`}. Tell the person: running it outside the sandbox needs their approval (sandbox: "none").`,
          'SANDBOX_FAILED',
        );
      }
      const status =
        ended !== undefined
          ? `Ended by ${exit.signal ?? 'SIGTERM'}: ${ended}.`
          : exit.signal !== null
            ? `Ended by ${exit.signal}.`
            : `Exit status ${exit.code}.`;
      const text = output.text();
      // Whatever the status: `npm install || true` fails quietly too.
      const blocked = launch.sandboxed ? blockedNote(text, confinement, name) : undefined;
      const output_ = text === '' ? `${status}\n(no output)` : `${status}\n${text}`;
      const body = removed === undefined ? output_ : `${output_}\n${removed}`;
      return {
        ok: true,
        output: blocked === undefined ? body : `${body}\n${blocked.note}`,
        details: {
          exit: { code: exit.code, signal: exit.signal },
          ...(blocked !== undefined && { blocked: blocked.blocked }),
        },
      };
    },
  };
}
