import { inertText, isHarnessError } from 'dsh-user-interaction';
import { isModelError } from '../models/model-error.js';
import { type AgentCommand, isUsageError, parseAgentCommandLine } from './agent-command-line.js';
import { type ProgramCommand, programCommand } from './program-command.js';
import { type ResolvedModel, resolveModel } from './resolve-model.js';

/** The command line of a program that runs: the shared flags and the program's own. */
export type AgentRunCommand = Extract<AgentCommand, { kind: 'run' }>;

/** What an agent program is: its name and texts, and what it does once a model is chosen. */
export interface AgentProgram {
  /**
   * The program's command, such as `dsh-stdio-agent`: hints name it as the person started it
   * (see `programCommand`: `pnpm start --` in a clone).
   */
  readonly name: string;
  /** The help, printed by `--help`; a function gets the command as the person started it. */
  readonly helpText: string | ((command: ProgramCommand) => string);
  /** The version, printed by `--version`. */
  readonly version: string;
  /** The program's own boolean flags beyond the shared ones (`no-color`). */
  readonly booleanFlags?: readonly string[];
  /** The program's own flags that take a value, beyond the shared ones. */
  readonly valueFlags?: readonly string[];
  /**
   * Follows a usage error's message: where to find help. Default: `(try dsh-stdio-agent
   * --help)`, naming the command as the person started it.
   */
  readonly usageHint?: string;
  /** Writes one line for the person, on stderr; must not throw. */
  say(line: string): void;
  /**
   * Runs with the chosen model; resolves with the exit status. `invoked` is the command as
   * the person started it, for hints.
   */
  run(command: AgentRunCommand, model: ResolvedModel, invoked: ProgramCommand): Promise<number>;
}

/** Where a program reads its environment and writes its help. */
export interface AgentProgramContext {
  readonly env?: NodeJS.ProcessEnv;
  readonly stdout?: NodeJS.WritableStream;
}

/**
 * The life of an agent program from its arguments: `--help` and `--version`; a usage error
 * (a wrong flag, `--model` without a server, a base URL that is not http) is one line and
 * status 2; a script that cannot be used is one line and status 1; else the program runs with
 * the model chosen by `resolveModel`, and resolves with its status.
 */
export async function runAgentProgram(
  program: AgentProgram,
  args: readonly string[],
  { env = process.env, stdout = process.stdout }: AgentProgramContext = {},
): Promise<number> {
  const invoked = programCommand(program.name, env);
  const usageHint = program.usageHint ?? `(try ${invoked.withFlags('--help')})`;
  let command: AgentCommand;
  try {
    command = parseAgentCommandLine(args, {
      booleanFlags: program.booleanFlags ?? [],
      valueFlags: program.valueFlags ?? [],
    });
  } catch (error) {
    if (!isUsageError(error)) throw error;
    program.say(`${error.message} ${usageHint}`);
    return 2;
  }
  if (command.kind === 'help') {
    const { helpText } = program;
    stdout.write(typeof helpText === 'function' ? helpText(invoked) : helpText);
    return 0;
  }
  if (command.kind === 'version') {
    stdout.write(`${program.version}\n`);
    return 0;
  }
  let resolved: ResolvedModel;
  try {
    resolved = await resolveModel({ ...command, env });
  } catch (error) {
    if (isModelError(error, 'MODEL_OPTIONS_INVALID')) {
      program.say(`${error.message} ${usageHint}`);
      return 2;
    }
    // An unreadable or invalid script: its message names the file and the field.
    if (isHarnessError(error)) {
      program.say(error.message);
      return 1;
    }
    throw error;
  }
  return program.run(command, resolved, invoked);
}

/**
 * Runs the program as this process: with its arguments, setting the exit status; once it
 * ended, an idle keep-alive socket of a model server does not hold the process open.
 */
export function startAgentProgram(program: AgentProgram): void {
  runAgentProgram(program, process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
      setTimeout(() => process.exit(), 1_000).unref();
    },
    (error: unknown) => {
      program.say(internalErrorLine(error));
      process.exitCode = 1;
    },
  );
}

/**
 * The line a program says for a failure it did not expect: its stack, inert on one line (a
 * server's or a client's text in its message can neither act on the terminal nor forge lines).
 */
export function internalErrorLine(error: unknown): string {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return `internal error: ${inertText(text, 'terminal-line')}`;
}
