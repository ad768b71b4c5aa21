import { toolCallIdOf } from 'dsh-agent';
import type { UserInteraction } from 'dsh-user-interaction';
import { createReadlineProvider } from '../question-ui/readline-provider.js';
import type { InterruptDispatch } from './interrupt-dispatch.js';
import { createWaitingNotifier, type WaitingNotifier } from './notify/waiting-notifier.js';
import type { TerminalAgentOptions } from './terminal-agent.js';
import type { PromptLine, TerminalIo } from './terminal-io.js';
import type { UndoStack } from './undo-stack.js';
import { watchQuestions } from './watch-questions.js';

/** How the terminal agent asks: the settings of `TerminalAgentOptions` the question UI reads. */
export type TerminalQuestionsOptions = Pick<
  TerminalAgentOptions,
  'escapeCodeTimeout' | 'notify' | 'notifyCommand' | 'cwd' | 'notifyClock'
> & {
  /** The saved conversation's id, for `--notify-command`. */
  sessionId(): string | undefined;
};

/** The notifier of `--notify` and `--notify-command`; `undo` restores the title. */
function startNotifier(
  io: TerminalIo,
  options: TerminalQuestionsOptions,
  undo: UndoStack,
): WaitingNotifier | undefined {
  const mode = options.notify ?? 'off';
  // Never in plain mode or on a pipe: a notification is an escape sequence, and nobody is there.
  if (!io.terminal || (mode === 'off' && options.notifyCommand === undefined)) return undefined;
  const notifier = createWaitingNotifier({
    input: io.input,
    output: io.output,
    env: io.sourceEnv,
    mode,
    ...(options.notifyCommand !== undefined && { command: options.notifyCommand }),
    say: (line) => io.say(`${line}\n`),
    cwd: options.cwd ?? process.cwd(),
    sessionId: options.sessionId,
    ...(options.notifyClock !== undefined && { clock: options.notifyClock }),
  });
  undo.defer(() => notifier.close());
  const restoreTitle = (): void => notifier.close();
  process.on('exit', restoreTitle);
  undo.defer(() => process.removeListener('exit', restoreTitle));
  return notifier;
}

/**
 * Makes the question UI, on the prompt's Interface, the provider of `interaction`: a question
 * the person dismisses cancels the turn, and one that waits notifies. Returns the tool calls
 * whose question the UI took (the turn clears it); `undo` takes the UI away.
 */
export function connectTerminalQuestions(
  io: TerminalIo,
  prompt: PromptLine,
  interaction: UserInteraction,
  interrupts: InterruptDispatch,
  options: TerminalQuestionsOptions,
  undo: UndoStack,
): Set<string> {
  const notifier = startNotifier(io, options, undo);
  const { escapeCodeTimeout } = options;
  const provider = createReadlineProvider({
    readline: prompt.rl,
    env: io.env,
    ...(io.plain && { mode: 'line' as const }),
    ...(escapeCodeTimeout !== undefined && { escapeCodeTimeout }),
  });
  undo.defer(() => provider.dispose());
  const taken = new Set<string>();
  const registration = interaction.registerProvider(
    watchQuestions(provider, {
      onDismissed: () => interrupts.dispatch({ type: 'cancel' }),
      onTaken: (toolCallId) => taken.add(toolCallId),
      ...(notifier !== undefined && { onWaiting: (item) => notifier.waiting(item) }),
      toolCallIdOf,
    }),
  );
  undo.defer(registration);
  return taken;
}
