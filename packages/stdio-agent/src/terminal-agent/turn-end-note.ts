import {
  AGENT_ERROR_CODES,
  type AgentErrorCode,
  MODEL_ERROR_CODES,
  type ModelErrorCode,
  type TurnEndEvent,
} from 'dsh-agent';
import type { ProgramCommand } from 'dsh-agent/command-line';
import { neutralizeText } from '../text/neutralize-text.js';
import type { TerminalStyle } from '../text/terminal-style.js';
import { type StyledRun, wrapStyledLine } from '../text/wrap-styled-line.js';

const RETRY = 'Send your message again to retry (the conversation is kept)';

/** How the lines that end a turn are written. */
export interface NoteContext {
  readonly style: TerminalStyle;
  /** The columns a line may take, or `undefined` (a pipe): lines are wrapped at words to it. */
  readonly width: number | undefined;
  /** The command as the person started it, for the hints that name it. */
  readonly command: ProgramCommand;
  /** The input is a pipe, not a person at a terminal: no key can quit (default: false). */
  readonly piped?: boolean;
}

/** The codes a turn can end with that have their own next step. */
type TurnEndCode = ModelErrorCode | AgentErrorCode;

function isTurnEndCode(code: string): code is TurnEndCode {
  return (
    (MODEL_ERROR_CODES as readonly string[]).includes(code) ||
    (AGENT_ERROR_CODES as readonly string[]).includes(code)
  );
}

/** What the person can do about a failed turn, by the error's code. */
function nextStep(code: string, command: ProgramCommand, piped: boolean): string | undefined {
  // A pipe's next line is its next message; only a person at a terminal can press a key.
  const retry = piped ? `${RETRY}.` : `${RETRY}, or press Ctrl+D to quit.`;
  if (!isTurnEndCode(code)) return retry;
  switch (code) {
    case 'STEP_LIMIT':
      // Its message already says to send a message.
      return undefined;
    case 'MODEL_AUTH':
      return `Check DEEPSEEK_API_KEY (or DSH_API_KEY for another server) and run ${command.name} again.`;
    case 'MODEL_NOT_FOUND':
      return `Check --model and --base-url, and run ${command.name} again.`;
    case 'MODEL_REQUEST_REJECTED':
      return 'Check --model and --base-url, or send a different message.';
    case 'MODEL_CLIENT_MISSING':
      return `Install the dependencies again (pnpm install), then run ${command.name} again.`;
    case 'MODEL_TIMEOUT':
      return `Send your message again to retry (the conversation is kept), or give the server more time: ${command.withFlags('--request-timeout 60s')}, with your other flags.`;
    default:
      return retry;
  }
}

/** A line made of styled runs, wrapped at words to the width when there is one. */
function wrapped(runs: readonly StyledRun[], width: number | undefined): string[] {
  return wrapStyledLine(runs, width ?? Number.POSITIVE_INFINITY, '  ');
}

/**
 * The lines that end a turn, or none for a turn that finished: a cancelled turn says so;
 * a failed one gives the error's message and code, and what to do next. Lines are wrapped at
 * words, a wrapped line indented under the text of its first one.
 */
export function turnEndNote(event: TurnEndEvent, context: NoteContext): string[] {
  const { style, width } = context;
  const { symbols } = style;
  switch (event.reason) {
    case 'finished':
      return [];
    case 'cancelled':
      return wrapped(
        [
          { text: symbols.withdrawn, style: style.warning },
          { text: ' ' },
          { text: 'Turn cancelled.', style: style.bold },
          { text: ' ' },
          { text: 'Type your next message to go on.', style: style.dim },
        ],
        width,
      );
    case 'step-limit':
    case 'error': {
      const { code } = event.error;
      const message = neutralizeText(event.error.message);
      const heading = event.reason === 'error' ? 'Error' : 'Stopped';
      const lines = wrapped(
        [
          { text: symbols.refused, style: style.warning },
          { text: ' ' },
          { text: heading, style: style.bold },
          { text: `: ${message} (${code})` },
        ],
        width,
      );
      const next = nextStep(code, context.command, context.piped === true);
      if (next !== undefined)
        lines.push(...wrapped([{ text: `  ${next}`, style: style.dim }], width));
      return lines;
    }
  }
}
