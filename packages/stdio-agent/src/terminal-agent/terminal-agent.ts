import {
  type AgentTool,
  type ChatAgent,
  createAgent,
  type Model,
  type PermissionPolicy,
  type StoredSession,
} from 'dsh-agent';
import { type ProgramCommand, programCommand } from 'dsh-agent/command-line';
import type { McpServerConfig } from 'dsh-mcp';
import { createUserInteraction, type UserInteraction } from 'dsh-user-interaction';
import { neutralizeText } from '../text/neutralize-text.js';
import {
  InterruptDispatch,
  type InterruptSource,
  listenForInterrupts,
} from './interrupt-dispatch.js';
import type { NotifierClock, NotifyMode } from './notify/waiting-notifier.js';
import { pastTurnsText } from './past-turns.js';
import { runPromptLoop } from './prompt-loop.js';
import { statusLines } from './status-lines.js';
import { openPromptLine, TerminalIo } from './terminal-io.js';
import { connectTerminalQuestions } from './terminal-questions.js';
import type { TerminalTurnContext } from './terminal-turn.js';
import type { StatusClock } from './turn-status.js';
import { UndoStack } from './undo-stack.js';

export { type InterruptSource, QUIT_HINT } from './interrupt-dispatch.js';
export { resumeNote } from './prompt-loop.js';

/** Options of `runTerminalAgent`. */
export interface TerminalAgentOptions {
  /** The model that writes the assistant's turns (see `resolveModel` in `dsh-agent`). */
  readonly model: Model;
  /** One line that says which model runs, written to `errorOutput` at start. */
  readonly modelDescription?: string;
  /** One line that says where the agent's tools work, written after the model's line. */
  readonly workspaceDescription?: string;
  /** One line that says whether commands run in the sandbox (`sandboxStatusLine` of `dsh-tools`). */
  readonly sandboxDescription?: string;
  /** Where prompts and answers are read (default: `process.stdin`). */
  readonly input?: NodeJS.ReadableStream;
  /** Where the conversation is written (default: `process.stdout`). */
  readonly output?: NodeJS.WritableStream;
  /** Where the status line goes (default: `process.stderr`). */
  readonly errorOutput?: NodeJS.WritableStream;
  /** Where `NO_COLOR`, `FORCE_COLOR` and `TERM` are read (default: `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /** A time limit for each question, in milliseconds (default: none). */
  readonly questionTimeoutMs?: number;
  /** `false` turns colours off, `true` forces them; by default they follow the terminal. */
  readonly color?: boolean;
  /**
   * Plain mode, for screen readers and terminals that cannot redraw (also when `TERM` is
   * `dumb`): questions are asked as line mode asks them, text is written without styling or
   * cursor movement, and no status line is shown.
   */
  readonly plain?: boolean;
  /**
   * Print the model's reasoning, dimmed, before its answer. By default a terminal shows only a
   * "Thinking…" status while the model reasons, and a pipe shows nothing of it.
   */
  readonly showThinking?: boolean;
  /** The clock of the status line (tests move it by hand). */
  readonly clock?: StatusClock;
  /** Milliseconds a lone Esc waits for the rest of a key sequence (default: Node's 500). */
  readonly escapeCodeTimeout?: number;
  /** Where `SIGINT` signals arrive; they interrupt like Ctrl+C. Listened to while running. */
  readonly interrupts?: InterruptSource;
  /**
   * Where the conversation is saved (a session of `openSessionStore` in `dsh-agent`), and the
   * conversation so far when it is resumed: its last turns are shown before the prompt, and
   * the model receives all of it. Closed when the agent ends. Without one, the conversation
   * is kept in memory only.
   */
  readonly session?: StoredSession;
  /** Tools the agent may call besides `ask_user_question` (such as `createWorkspaceTools` of `dsh-tools`). */
  readonly tools?: readonly AgentTool[];
  /**
   * Decides which calls of tools that describe themselves run without asking (such as
   * `createPermissionPolicy` of `dsh-tools`); the others are approved by the person, in the
   * terminal. Default: every such call asks.
   */
  readonly permissions?: PermissionPolicy;
  /**
   * Where an "always" answer keeps its rule (`files.workspace` of a `dsh-tools` policy): said
   * under the approval once the rule is saved, so the person knows where to undo it.
   */
  readonly rulesFile?: string;
  /**
   * `--mcp-config`: MCP servers connected before the first prompt (a line says which did and
   * which did not), their tools offered under `mcp__<server>__<tool>` and gated by the same
   * approvals, their questions asked here; stopped when the agent ends.
   */
  readonly mcpServers?: readonly McpServerConfig[];
  /**
   * `--mcp-trust-read-only`: the MCP servers whose `readOnlyHint` the person trusts; their tools
   * that say they only read run unasked (a deny rule still applies). Default: none.
   */
  readonly mcpTrustReadOnly?: readonly string[];
  /**
   * `--notify`: while a question or an approval waits, the title says so, and a terminal that
   * is not in front gets one notification (`auto`: OSC 9, OSC 777 or kitty's OSC 99 by
   * terminal, else a bell; `bell`; `off`). Never in plain mode or on a pipe. Default `off` here;
   * the program's default is `auto`.
   */
  readonly notify?: NotifyMode;
  /** `--notify-command`: runs with a JSON description on its stdin when something waits. */
  readonly notifyCommand?: string;
  /** The folder the agent works in, for `--notify-command` (default: `process.cwd()`). */
  readonly cwd?: string;
  /** The notifier's timers (tests move them by hand). */
  readonly notifyClock?: NotifierClock;
  /**
   * The command as the person started it, for the hints that name it (default:
   * `programCommand('dsh-stdio-agent', env)` of `dsh-agent`).
   */
  readonly command?: ProgramCommand;
}

/** Exit status when Ctrl+C is pressed again while a turn is being cancelled. */
export const INTERRUPTED_EXIT_CODE = 130;

/** Exit status when input or output is not a terminal and a turn ended with an error. */
export const FAILED_TURN_EXIT_CODE = 1;

/**
 * The agent, with the tools of `--mcp-config`'s servers besides the given ones; `undo` stops the
 * servers. Invalid options throw here, before the terminal is touched.
 */
async function startAgent(
  options: TerminalAgentOptions,
  io: TerminalIo,
  interaction: UserInteraction,
  undo: UndoStack,
): Promise<ChatAgent> {
  const { session, questionTimeoutMs } = options;
  let tools = options.tools ?? [];
  let permissions = options.permissions;
  if (options.mcpServers !== undefined && options.mcpServers.length > 0) {
    const say = (line: string): void => io.say(`${neutralizeText(line)}\n`);
    // Loaded only here: a session without MCP servers never pays for loading the MCP client.
    const { startMcpServers } = await import('./mcp-servers.js');
    const mcp = await startMcpServers(options.mcpServers, interaction, permissions, say, {
      trustReadOnlyHint: options.mcpTrustReadOnly ?? [],
      ...(questionTimeoutMs !== undefined && { questionTimeoutMs }),
    });
    undo.defer(() => mcp.close());
    tools = [...tools, ...mcp.tools];
    permissions = mcp.permissions ?? permissions;
  }
  return createAgent({
    model: options.model,
    interaction,
    ...(questionTimeoutMs !== undefined && { questionTimeoutMs }),
    ...(session !== undefined && { conversation: session.entries, recorder: session.recorder }),
    ...(tools.length > 0 && { tools }),
    ...(permissions !== undefined && { permissions }),
  });
}

/**
 * Runs the terminal agent: a chat REPL on one readline Interface, shared by the prompt and
 * the question UI. Streams the assistant's text, shows tool activity, cancels a turn on
 * Ctrl+C, and resolves with the exit status once the person quits or the input ends.
 */
export async function runTerminalAgent(options: TerminalAgentOptions): Promise<number> {
  const io = new TerminalIo(options);
  const command = options.command ?? programCommand('dsh-stdio-agent', io.env);
  // Invalid options throw here, before the terminal is touched.
  const interaction = createUserInteraction();
  const { session, escapeCodeTimeout } = options;
  // Each cleanup is registered right after its setup; all run, last first, when the agent ends.
  const undo = new UndoStack();
  if (session !== undefined) undo.defer(() => session.close());
  try {
    const agent = await startAgent(options, io, interaction, undo);
    const { style, input, output } = io;
    io.say(
      statusLines(
        options.modelDescription,
        io.onTerminal,
        io.errorStyle,
        io.errorColumns(),
        options.workspaceDescription,
        options.sandboxDescription,
      ),
    );
    // A resumed conversation: where the person was, before the prompt.
    if (session !== undefined) {
      const width = io.textColumns();
      const { textWrap: wrap, pipedInput: piped } = io;
      io.write(pastTurnsText(session.entries, { style, width, command, piped, wrap }));
    }

    const prompt = openPromptLine(io, undo, escapeCodeTimeout);
    const interrupts = new InterruptDispatch(io, prompt);
    let exitCode = 0;
    io.watchOutput(undo, (error) => {
      if (error?.code !== 'EPIPE') exitCode = 1;
      interrupts.dispatch({ type: 'cancel' });
      prompt.rl.close();
    });
    const taken = connectTerminalQuestions(
      io,
      prompt,
      interaction,
      interrupts,
      { ...options, sessionId: () => session?.id },
      undo,
    );
    listenForInterrupts(io, prompt, interrupts, options.interrupts, undo);

    let turnFailed = false;
    const turns: TerminalTurnContext = {
      agent,
      io,
      interrupts,
      taken,
      onFailed: () => {
        turnFailed = true;
      },
      renderer: {
        style,
        columns: () => io.textColumns(),
        wrap: io.textWrap,
        questionShown: (toolCallId) => taken.has(toolCallId),
        questionTimeoutMs: options.questionTimeoutMs,
        showThinking: options.showThinking === true,
        ...(options.rulesFile !== undefined && { rulesFile: options.rulesFile }),
        status: io.terminal,
        piped: io.pipedInput,
        ...(options.clock !== undefined && { clock: options.clock }),
        command,
      },
    };
    const end = await runPromptLoop({ prompt, turns, session, command });
    if (end === 'forced') return INTERRUPTED_EXIT_CODE;
    const piped = input.isTTY !== true || output.isTTY !== true;
    return exitCode === 0 && piped && turnFailed ? FAILED_TURN_EXIT_CODE : exitCode;
  } finally {
    await undo.undo();
  }
}
