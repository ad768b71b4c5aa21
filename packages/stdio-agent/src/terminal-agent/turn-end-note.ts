import {
  AGENT_ERROR_CODES,
  type AgentErrorCode,
  MODEL_ERROR_CODES,
  type ModelErrorCode,
  type TurnEndEvent,
} from 'dsh-agent';
import { neutralizeText } from '../text/neutralize-text.js';
import type { TerminalStyle } from '../text/terminal-style.js';

const RETRY =
  'Send your message again to retry (the conversation is kept), or press Ctrl+D to quit.';

/** The codes a turn can end with that have their own next step. */
type TurnEndCode = ModelErrorCode | AgentErrorCode;

function isTurnEndCode(code: string): code is TurnEndCode {
  return (
    (MODEL_ERROR_CODES as readonly string[]).includes(code) ||
    (AGENT_ERROR_CODES as readonly string[]).includes(code)
  );
}

/** What the person can do about a failed turn, by the error's code. */
function nextStep(code: string): string | undefined {
  if (!isTurnEndCode(code)) return RETRY;
  switch (code) {
    case 'STEP_LIMIT':
      // Its message already says to send a message.
      return undefined;
    case 'MODEL_AUTH':
      return 'Check DEEPSEEK_API_KEY (or DSH_API_KEY for another server) and start dsh-stdio-agent again.';
    case 'MODEL_NOT_FOUND':
      return 'Check --model and --base-url, and start dsh-stdio-agent again.';
    case 'MODEL_REQUEST_REJECTED':
      return 'Check --model and --base-url, or send a different message.';
    case 'MODEL_CLIENT_MISSING':
      return 'Install the dependencies again (pnpm install), then start dsh-stdio-agent again.';
    default:
      return RETRY;
  }
}

/**
 * The lines that end a turn, or none for a turn that finished: a cancelled turn says so;
 * a failed one gives the error's message and code, and what to do next.
 */
export function turnEndNote(event: TurnEndEvent, style: TerminalStyle): string[] {
  const { symbols } = style;
  switch (event.reason) {
    case 'finished':
      return [];
    case 'cancelled':
      return [
        `${style.warning(symbols.withdrawn)} ${style.bold('Turn cancelled.')} ${style.dim('Type your next message to go on.')}`,
      ];
    case 'step-limit':
    case 'error': {
      const { code } = event.error;
      const message = neutralizeText(event.error.message);
      const heading = event.reason === 'error' ? 'Error' : 'Stopped';
      const lines = [
        `${style.warning(symbols.refused)} ${style.bold(heading)}: ${message} (${code})`,
      ];
      const next = nextStep(code);
      if (next !== undefined) lines.push(style.dim(`  ${next}`));
      return lines;
    }
  }
}
