import { createInterface, type Interface } from 'node:readline';
import {
  type AgentTool,
  type ConversationEntry,
  createAgent,
  type Model,
  type PermissionPolicy,
  type StoredSession,
  toolCallIdOf,
} from 'dsh-agent';
import { type ProgramCommand, programCommand } from 'dsh-agent/command-line';
import type { McpServerConfig } from 'dsh-mcp';
import { createUserInteraction } from 'dsh-user-interaction';
import { cookedTerminalInput } from '../question-ui/line-mode/cooked-terminal-input.js';
import { lineReaderFor } from '../question-ui/line-mode/line-reader.js';
import { createReadlineProvider } from '../question-ui/readline-provider.js';
import { restoreTerminal } from '../question-ui/terminal/restore-terminal.js';
import { onSuspend, suspendByKey } from '../question-ui/terminal/suspend.js';
import type { TerminalInput, TerminalOutput } from '../question-ui/terminal/terminal-streams.js';
import { neutralizeText } from '../text/neutralize-text.js';
import { terminalStyle } from '../text/terminal-style.js';
import { holdTurnKeys } from './hold-turn-keys.js';
import {
  AT_PROMPT,
  type InterruptEvent,
  type InterruptState,
  interruptStep,
} from './interrupt-state.js';
import { startMcpServers, type TerminalMcpServers } from './mcp-servers.js';
import {
  createWaitingNotifier,
  type NotifierClock,
  type NotifyMode,
} from './notify/waiting-notifier.js';
import { interruptedNote, pastTurnsText } from './past-turns.js';
import { createTurnRenderer } from './render-turn-events.js';
import { statusLines } from './status-lines.js';
import { terminalWriter } from './terminal-writer.js';
import type { StatusClock } from './turn-status.js';
import { watchQuestions } from './watch-questions.js';

/** Where `SIGINT` arrives when Ctrl+C is a signal rather than a key (the process, in the bin). */
export interface InterruptSource {
  on(event: 'SIGINT', listener: () => void): unknown;
  removeListener(event: 'SIGINT', listener: () => void): unknown;
}

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

function colorEnvironment(env: NodeJS.ProcessEnv, color: boolean | undefined): NodeJS.ProcessEnv {
  // FORCE_COLOR wins over every other setting, for this program and the question UI alike.
  return color === undefined ? env : { ...env, FORCE_COLOR: color ? '1' : '0' };
}

/** What the first Ctrl+C at the prompt right after a cancelled turn says instead of quitting. */
export const QUIT_HINT = 'Press Ctrl+C again, or Ctrl+D, to quit.';

function clearLine(rl: Interface): void {
  rl.write(null, { ctrl: true, name: 'e' });
  rl.write(null, { ctrl: true, name: 'u' });
}

/** What the last `posed` entry of a conversation put to the person. */
function lastPosed(entries: readonly ConversationEntry[]): 'question' | 'approval' | undefined {
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index];
    if (entry?.type === 'posed') return entry.kind;
  }
  return undefined;
}

/** The line before a turn that goes on after the program stopped in it. */
export function resumeNote(waited: 'question' | 'approval' | undefined): string {
  const what = waited === 'approval' ? 'an approval' : 'a question';
  return `The agent stopped while ${what} waited for you: it is asked again, and the turn goes on.`;
}

/**
 * Runs the terminal agent: a chat REPL on one readline Interface, shared by the prompt and
 * the question UI. Streams the assistant's text, shows tool activity, cancels a turn on
 * Ctrl+C, and resolves with the exit status once the person quits or the input ends.
 */
export async function runTerminalAgent(options: TerminalAgentOptions): Promise<number> {
  const input = (options.input ?? process.stdin) as TerminalInput;
  const output = (options.output ?? process.stdout) as TerminalOutput;
  const errorOutput = (options.errorOutput ?? process.stderr) as TerminalOutput;
  const sourceEnv = options.env ?? process.env;
  const plain = options.plain === true || sourceEnv.TERM === 'dumb';
  // Plain mode has no styling at all, whatever the colour settings say.
  const env = colorEnvironment(sourceEnv, plain ? false : options.color);
  const { questionTimeoutMs, escapeCodeTimeout } = options;
  const command = options.command ?? programCommand('dsh-stdio-agent', env);
  const onTerminal = input.isTTY === true && output.isTTY === true;
  /** Whether the screen is drawn on: raw keys, menus, the status line. */
  const terminal = onTerminal && typeof input.setRawMode === 'function' && !plain;
  /** How the model's text wraps: only a screen drawn on may take back what it wrote. */
  const textWrap = terminal ? 'redraw' : 'hold';
  // Invalid options throw here, before the terminal is touched.
  const interaction = createUserInteraction();
  const { session } = options;
  let agent: ReturnType<typeof createAgent>;
  let mcp: TerminalMcpServers | undefined;
  try {
    if (options.mcpServers !== undefined && options.mcpServers.length > 0) {
      const say = terminalWriter(errorOutput);
      mcp = await startMcpServers(options.mcpServers, interaction, options.permissions, (line) =>
        say(`${neutralizeText(line)}\n`),
      );
    }
    const tools = [...(options.tools ?? []), ...(mcp?.tools ?? [])];
    const permissions = mcp?.permissions ?? options.permissions;
    agent = createAgent({
      model: options.model,
      interaction,
      ...(questionTimeoutMs !== undefined && { questionTimeoutMs }),
      ...(session !== undefined && { conversation: session.entries, recorder: session.recorder }),
      ...(tools.length > 0 && { tools }),
      ...(permissions !== undefined && { permissions }),
    });
  } catch (error) {
    await mcp?.close();
    await session?.close();
    throw error;
  }
  const style = terminalStyle({ env, stream: output, interactive: terminal });
  let outputBroken = false;
  const writeOutput = terminalWriter(output);
  const write = (text: string): void => {
    if (!outputBroken) writeOutput(text);
  };

  const errorStyle = terminalStyle({
    env,
    stream: errorOutput,
    interactive: errorOutput.isTTY === true,
  });
  const errorColumns = errorOutput.isTTY === true ? errorOutput.columns : undefined;
  terminalWriter(errorOutput)(
    statusLines(
      options.modelDescription,
      onTerminal,
      errorStyle,
      errorColumns,
      options.workspaceDescription,
      options.sandboxDescription,
    ),
  );
  // A resumed conversation: where the person was, before the prompt.
  if (session !== undefined) {
    const width = textColumns();
    const piped = input.isTTY !== true;
    write(pastTurnsText(session.entries, { style, width, command, piped, wrap: textWrap }));
  }

  // A keyboard in cooked mode (plain mode, or output to a pipe): Ctrl+D at a question ends only
  // that question, and quits only at the prompt.
  let atPrompt = false;
  const fd = (input as { fd?: unknown }).fd;
  const lineInput =
    !terminal && input.isTTY === true && typeof fd === 'number'
      ? cookedTerminalInput(input as TerminalInput & { readonly fd: number }, {
          // At a question it declines; while the model works it is ignored, as on the screen.
          takeEndKey: () => lines.takeEndKey() || !atPrompt,
        })
      : input;
  const rl = createInterface({
    input: lineInput,
    output,
    terminal,
    prompt: `${style.bold(style.accent('>'))} `,
    crlfDelay: Number.POSITIVE_INFINITY,
    historySize: terminal ? 100 : 0,
    removeHistoryDuplicates: true,
    ...(escapeCodeTimeout !== undefined && { escapeCodeTimeout }),
  });
  const lines = lineReaderFor(rl);
  const provider = createReadlineProvider({
    readline: rl,
    env,
    ...(plain && { mode: 'line' as const }),
    ...(escapeCodeTimeout !== undefined && { escapeCodeTimeout }),
  });
  /** The running turn: what cancels it, and what stops waiting for it. */
  let active: { readonly controller: AbortController; forceQuit(): void } | undefined;
  let interrupts: InterruptState = AT_PROMPT;

  /** Runs Ctrl+C's state machine on an event, and does what it says. */
  function dispatch(event: InterruptEvent): void {
    const step = interruptStep(interrupts, event);
    interrupts = step.state;
    switch (step.action) {
      case 'clear-line':
        clearLine(rl);
        return;
      case 'explain-quit':
        write(`\n${style.dim(QUIT_HINT)}\n`);
        rl.prompt();
        return;
      case 'quit':
        // Closing the Interface ends the prompt loop.
        rl.close();
        return;
      case 'cancel-turn':
        active?.controller.abort();
        return;
      case 'force-quit':
        active?.forceQuit();
        return;
      case 'none':
        return;
    }
  }

  // Never in plain mode or on a pipe: a notification is an escape sequence, and nobody is there.
  const notifier =
    terminal && ((options.notify ?? 'off') !== 'off' || options.notifyCommand !== undefined)
      ? createWaitingNotifier({
          input,
          output,
          env: sourceEnv,
          mode: options.notify ?? 'off',
          ...(options.notifyCommand !== undefined && { command: options.notifyCommand }),
          say: (line) => terminalWriter(errorOutput)(`${line}\n`),
          cwd: options.cwd ?? process.cwd(),
          sessionId: () => session?.id,
          ...(options.notifyClock !== undefined && { clock: options.notifyClock }),
        })
      : undefined;
  const restoreTitle = (): void => notifier?.close();
  process.on('exit', restoreTitle);
  const taken = new Set<string>();
  const registration = interaction.registerProvider(
    watchQuestions(provider, {
      onDismissed: () => dispatch({ type: 'cancel' }),
      onTaken: (toolCallId) => taken.add(toolCallId),
      ...(notifier !== undefined && { onWaiting: (item) => notifier.waiting(item) }),
      toolCallIdOf,
    }),
  );

  function interrupt(): void {
    dispatch({ type: 'ctrl-c', lineTyped: terminal && rl.line !== '' });
  }

  // `atPrompt` (above): whether the prompt waits for a line, rather than a turn running.
  // Ctrl+Z and `kill -TSTP`: the shell gets a cooked terminal, and `fg` gets the prompt back.
  const leaveSuspend = terminal
    ? onSuspend({
        suspend: () => restoreTerminal(input, output),
        resume() {
          if (input.isRaw !== true) input.setRawMode?.(true);
          if (atPrompt) rl.prompt(true);
        },
      })
    : () => {};

  let exitCode = 0;
  /** Whether a turn ended with an error: a script reading a pipe is told by the exit status. */
  let turnFailed = false;
  const onOutputError = (error: { code?: unknown }): void => {
    if (outputBroken) return;
    outputBroken = true;
    // Whoever read the output is gone (`| head`): nothing more can be said, so stop.
    if (error?.code !== 'EPIPE') exitCode = 1;
    dispatch({ type: 'cancel' });
    rl.close();
  };

  /**
   * Where the model's text wraps. A screen drawn on fills the row; a terminal that is not
   * (plain mode) wraps a column early, as a terminal without a pending wrap would break the
   * line itself on the last one. A pipe is not wrapped.
   */
  function textColumns(): number | undefined {
    if (terminal) return output.columns;
    const { columns } = output;
    return output.isTTY === true && columns !== undefined && columns > 1 ? columns - 1 : undefined;
  }

  /** Runs a turn on the person's prompt; `undefined`: goes on with the turn a stop cut short. */
  async function runTurn(prompt: string | undefined): Promise<'ended' | 'forced'> {
    const controller = new AbortController();
    let forceQuit!: () => void;
    const forcedQuit = new Promise<void>((resolve) => {
      forceQuit = resolve;
    });
    active = { controller, forceQuit };
    dispatch({ type: 'turn-start' });
    taken.clear();
    let forced = false;
    const renderer = createTurnRenderer({
      write: (text) => {
        if (!forced) write(text);
      },
      style,
      columns: textColumns,
      wrap: textWrap,
      questionShown: (toolCallId) => taken.has(toolCallId),
      questionTimeoutMs,
      showThinking: options.showThinking === true,
      ...(options.rulesFile !== undefined && { rulesFile: options.rulesFile }),
      status: terminal,
      piped: input.isTTY !== true,
      ...(options.clock !== undefined && { clock: options.clock }),
      command,
    });
    const release = terminal ? holdTurnKeys(input, output, interrupt) : () => {};
    const played = (async () => {
      const turn =
        prompt === undefined
          ? agent.resume({ signal: controller.signal })
          : agent.run(prompt, { signal: controller.signal });
      for await (const event of turn) {
        if (event.type === 'turn-end' && event.reason === 'error') turnFailed = true;
        renderer.render(event);
      }
    })();
    try {
      const outcome = await Promise.race([
        played.then(() => 'ended' as const),
        forcedQuit.then(() => 'forced' as const),
      ]);
      if (outcome === 'forced') {
        forced = true;
        // The turn is cancelled already and ends on its own; nobody waits for it now.
        played.catch(() => {});
        write(`\n${style.warning('Interrupted.')}\n`);
      }
      return outcome;
    } finally {
      renderer.close();
      release();
      active = undefined;
      dispatch({ type: 'turn-end', cancelled: controller.signal.aborted, confirm: onTerminal });
    }
  }

  rl.on('SIGINT', interrupt);
  // Readline stops the process itself on Ctrl+Z, with no redraw after a `kill -TSTP`: one way.
  rl.on('SIGTSTP', suspendByKey);
  options.interrupts?.on('SIGINT', interrupt);
  output.on('error', onOutputError);
  let turnsRun = 0;
  try {
    // The program stopped while a question or an approval waited: it is asked again, and the
    // turn goes on from there.
    // Only on a terminal, where the person sees it: piped input was written without seeing it,
    // so its first line is a message, never an answer to a question from before. There the
    // first message closes that turn, as any turn the program stopped in.
    if (agent.resumable && input.isTTY === true) {
      const waited = session === undefined ? undefined : lastPosed(session.entries);
      write(`${style.dim(resumeNote(waited))}\n`);
      if ((await runTurn(undefined)) === 'forced') return INTERRUPTED_EXIT_CODE;
    } else if (agent.resumable) {
      write(`${interruptedNote(style)}\n\n`);
    }
    while (!lines.exhausted) {
      // Lines typed (or pasted) before the prompt was back were echoed wherever the cursor
      // was: show each after its own prompt too, so that the transcript reads right.
      const typedAhead = lines.buffered > 0 && rl.line === '';
      rl.prompt();
      atPrompt = true;
      const line = await lines.read();
      atPrompt = false;
      if (line === undefined) {
        // Ctrl+D, Ctrl+C at an empty prompt, or the end of piped input: leave the prompt's line.
        write('\n');
        break;
      }
      // A terminal showed what was typed; a log of piped input should read the same.
      if (input.isTTY !== true || typedAhead) write(`${neutralizeText(line)}\n`);
      const prompt = line.trim();
      dispatch({ type: 'line' });
      if (prompt === '') continue;
      turnsRun++;
      if ((await runTurn(prompt)) === 'forced') return INTERRUPTED_EXIT_CODE;
    }
    // A person who quits a saved conversation is told how to come back to it.
    if (
      session !== undefined &&
      input.isTTY === true &&
      (turnsRun > 0 || session.entries.length > 0)
    ) {
      const back = `To come back to this conversation: ${command.withFlags('--continue')}`;
      terminalWriter(errorOutput)(`${errorStyle.dim(back)}\n`);
    }
    const piped = input.isTTY !== true || output.isTTY !== true;
    return exitCode === 0 && piped && turnFailed ? FAILED_TURN_EXIT_CODE : exitCode;
  } finally {
    atPrompt = false;
    leaveSuspend();
    rl.removeListener('SIGINT', interrupt);
    rl.removeListener('SIGTSTP', suspendByKey);
    options.interrupts?.removeListener('SIGINT', interrupt);
    registration();
    provider.dispose();
    notifier?.close();
    process.removeListener('exit', restoreTitle);
    rl.close();
    if (lineInput !== input) (lineInput as { destroy(): void }).destroy();
    // A broken output still reports the writes that were under way: they must not crash.
    if (!outputBroken) output.removeListener('error', onOutputError);
    await mcp?.close();
    await session?.close();
  }
}
