import type { ConversationEntry, StoredSession } from 'dsh-agent';
import type { ProgramCommand } from 'dsh-agent/command-line';
import { neutralizeText } from '../text/neutralize-text.js';
import { interruptedNote } from './past-turns.js';
import type { PromptLine } from './terminal-io.js';
import { runTerminalTurn, type TerminalTurnContext } from './terminal-turn.js';

/** What the prompt loop works with, besides what each turn does. */
export interface PromptLoopContext {
  readonly prompt: PromptLine;
  /** What each turn works with. */
  readonly turns: TerminalTurnContext;
  readonly session: StoredSession | undefined;
  readonly command: ProgramCommand;
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
 * The chat: goes on with a turn the program stopped in, then reads a prompt and runs a turn on
 * it until the person quits or the input ends. `forced`: a turn was given up on (Ctrl+C twice).
 */
export async function runPromptLoop(context: PromptLoopContext): Promise<'quit' | 'forced'> {
  const { prompt, turns, session } = context;
  const { rl, lines } = prompt;
  const { agent, io, interrupts } = turns;
  const { input, style } = io;
  // The program stopped while a question or an approval waited: it is asked again, and the
  // turn goes on from there.
  // Only on a terminal, where the person sees it: piped input was written without seeing it,
  // so its first line is a message, never an answer to a question from before. There the
  // first message closes that turn, as any turn the program stopped in.
  if (agent.resumable && input.isTTY === true) {
    const waited = session === undefined ? undefined : lastPosed(session.entries);
    io.write(`${style.dim(resumeNote(waited))}\n`);
    if ((await runTerminalTurn(turns, undefined)) === 'forced') return 'forced';
  } else if (agent.resumable) {
    io.write(`${interruptedNote(style)}\n\n`);
  }
  let turnsRun = 0;
  while (!lines.exhausted) {
    // Lines typed (or pasted) before the prompt was back were echoed wherever the cursor
    // was: show each after its own prompt too, so that the transcript reads right.
    const typedAhead = lines.buffered > 0 && rl.line === '';
    rl.prompt();
    let line: string | undefined;
    prompt.atPrompt = true;
    try {
      line = await lines.read();
    } finally {
      prompt.atPrompt = false;
    }
    if (line === undefined) {
      // Ctrl+D, Ctrl+C at an empty prompt, or the end of piped input: leave the prompt's line.
      io.write('\n');
      break;
    }
    // A terminal showed what was typed; a log of piped input should read the same.
    if (input.isTTY !== true || typedAhead) io.write(`${neutralizeText(line)}\n`);
    const text = line.trim();
    interrupts.dispatch({ type: 'line' });
    if (text === '') continue;
    turnsRun++;
    if ((await runTerminalTurn(turns, text)) === 'forced') return 'forced';
  }
  // A person who quits a saved conversation is told how to come back to it.
  if (
    session !== undefined &&
    input.isTTY === true &&
    (turnsRun > 0 || session.entries.length > 0)
  ) {
    const back = `To come back to this conversation: ${context.command.withFlags('--continue')}`;
    io.say(`${io.errorStyle.dim(back)}\n`);
  }
  return 'quit';
}
