import { spawn } from 'node:child_process';
import type { AgentTool } from 'dsh-agent';
import { WorkspaceToolError } from '../tool-error.js';
import type { Workspace } from '../workspace/workspace.js';
import { argumentsOf, countArgument, textArgument } from './tool-arguments.js';

/** Bytes of output kept from the start and from the end; what lies between is counted, not kept. */
export const KEPT_OUTPUT = 16 * 1024;
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

/** How long the output of a command that exited is read for, when something holds its pipes open. */
const DRAIN_MS = 1000;

/** Resolves once every stream has ended or closed, or after `ms`; then stops reading them. */
async function drained(
  streams: readonly (
    | (NodeJS.ReadableStream & { destroy(): void; readableEnded?: boolean; closed?: boolean })
    | null
  )[],
  ms: number,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const open = streams.filter(
    (stream): stream is NonNullable<typeof stream> =>
      stream !== null && stream.readableEnded !== true && stream.closed !== true,
  );
  await Promise.race([
    Promise.all(
      open.map(
        (stream) =>
          new Promise<void>((resolve) => {
            stream.once('end', resolve);
            stream.once('close', resolve);
          }),
      ),
    ),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
  for (const stream of open) stream.destroy();
}

/** The start and the end of a stream of output, in bounded memory. */
class KeptOutput {
  #head = Buffer.alloc(0);
  #tail: Buffer[] = [];
  #tailBytes = 0;
  #dropped = 0;

  add(chunk: Buffer): void {
    if (this.#head.length < KEPT_OUTPUT) {
      const room = KEPT_OUTPUT - this.#head.length;
      this.#head = Buffer.concat([this.#head, chunk.subarray(0, room)]);
      chunk = chunk.subarray(room);
    }
    if (chunk.length === 0) return;
    this.#tail.push(chunk);
    this.#tailBytes += chunk.length;
    while (this.#tailBytes > KEPT_OUTPUT) {
      const first = this.#tail[0] as Buffer;
      const excess = this.#tailBytes - KEPT_OUTPUT;
      if (first.length <= excess) {
        this.#tail.shift();
        this.#tailBytes -= first.length;
        this.#dropped += first.length;
      } else {
        this.#tail[0] = first.subarray(excess);
        this.#tailBytes -= excess;
        this.#dropped += excess;
      }
    }
  }

  text(): string {
    const head = this.#head.toString('utf8');
    const tail = Buffer.concat(this.#tail).toString('utf8');
    if (this.#dropped === 0) return head + tail;
    return `${head}\n[… ${this.#dropped} bytes of output not kept …]\n${tail}`;
  }
}

const DESCRIPTION = `Runs a command with bash -c in the workspace folder, and returns its exit status and its output (standard output and error together; long output keeps its start and its end). It has no input: a command that waits for a person gets nothing. A time limit (timeout, in seconds, default ${COMMAND_TIME_LIMITS.defaultSeconds}, at most ${COMMAND_TIME_LIMITS.maxSeconds}) ends it and everything it started. The person approves each command before it runs, unless a rule allows it; a command a rule cannot check (variables as commands, eval, writes through > redirections) always asks. A non-zero exit status is a result, not an error. Errors: ARGUMENTS_INVALID (an empty command, one holding a NUL or over ${LONGEST_COMMAND_BYTES} bytes, a bad timeout), PERMISSION_DENIED (the person or a rule did not allow it: it did not run), TURN_CANCELLED.`;

/** `run_command`: `bash -c` in the workspace, time-limited, output capped, its process group always ended. */
export function createRunCommandTool(
  workspace: Workspace,
  options: { defaultTimeoutSeconds?: number } = {},
): AgentTool {
  return {
    name: 'run_command',
    description: DESCRIPTION,
    parameters: {
      type: 'object',
      properties: {
        command: { type: 'string', description: 'The command line, as bash -c runs it.' },
        timeout: {
          type: 'integer',
          minimum: 1,
          maximum: COMMAND_TIME_LIMITS.maxSeconds,
          description: `Seconds before it is ended (default ${COMMAND_TIME_LIMITS.defaultSeconds}).`,
        },
      },
      required: ['command'],
      additionalProperties: false,
    },
    title: (args) =>
      `Run ${String((args as { command?: unknown } | null)?.command ?? 'a command')}`,
    describe(args) {
      const fields = argumentsOf(args, 'run_command');
      const command = textArgument(fields, 'command', 'run_command', true);
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
      const seconds = countArgument(fields, 'timeout', 'run_command');
      if (seconds !== undefined && seconds > COMMAND_TIME_LIMITS.maxSeconds) {
        throw new WorkspaceToolError(
          `\`timeout\` is at most ${COMMAND_TIME_LIMITS.maxSeconds} seconds.`,
          'ARGUMENTS_INVALID',
        );
      }
      const firstLine = command.trim().split('\n')[0] as string;
      const title = firstLine.length > 80 ? `${firstLine.slice(0, 79)}…` : firstLine;
      return {
        kind: 'execute',
        title: `Run ${title}${command.trim().includes('\n') ? ' …' : ''}`,
        locations: [{ path: workspace.root }],
        command: { command, cwd: workspace.root },
      };
    },
    async execute(args, context) {
      const approved = context.description?.command;
      if (approved === undefined)
        throw new WorkspaceToolError(
          'The command was not described before it ran.',
          'ARGUMENTS_INVALID',
        );
      const fields = argumentsOf(args, 'run_command');
      const seconds =
        countArgument(fields, 'timeout', 'run_command') ??
        options.defaultTimeoutSeconds ??
        COMMAND_TIME_LIMITS.defaultSeconds;
      const { signal } = context;
      watchExit();
      const output = new KeptOutput();
      const child = spawn('bash', ['-c', approved.command], {
        cwd: approved.cwd,
        // Never the person's terminal: a command that reads gets the end of its input.
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
        env: process.env,
      });
      const pid = child.pid;
      if (pid !== undefined) running.add(pid);
      child.stdout?.on('data', (chunk: Buffer) => output.add(chunk));
      child.stderr?.on('data', (chunk: Buffer) => output.add(chunk));
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
      await drained([child.stdout, child.stderr], DRAIN_MS);
      if (exit.error !== undefined) {
        throw new WorkspaceToolError(
          `The command could not start (${(exit.error as { code?: string }).code ?? exit.error.message}).`,
          'ARGUMENTS_INVALID',
        );
      }
      const status =
        ended !== undefined
          ? `Ended by ${exit.signal ?? 'SIGTERM'}: ${ended}.`
          : exit.signal !== null
            ? `Ended by ${exit.signal}.`
            : `Exit status ${exit.code}.`;
      const text = output.text();
      return {
        ok: true,
        output: text === '' ? `${status}\n(no output)` : `${status}\n${text}`,
        details: { exit: { code: exit.code, signal: exit.signal } },
      };
    },
  };
}
