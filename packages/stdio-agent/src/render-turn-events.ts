import type { AgentEvent } from 'dsh-agent';
import { ASK_USER_QUESTION_TOOL_NAME } from 'dsh-user-interaction';
import { fitStyledLine } from './fit-styled-line.js';
import { StreamedText } from './streamed-text.js';
import type { TerminalStyle } from './terminal-style.js';
import { type AnnouncedCall, toolActivityLine } from './tool-activity-line.js';
import { turnEndNote } from './turn-end-note.js';

/** Where and how a turn is drawn. */
export interface TurnRendererOptions {
  /** Writes text as is; `\n` ends a line (a terminal writer turns it into `\r\n`). */
  write(text: string): void;
  readonly style: TerminalStyle;
  /** Columns a line may take before the terminal wraps it, or `undefined` for a pipe. */
  columns(): number | undefined;
  /** Whether the question UI took the question of this tool call (and left a summary line). */
  questionShown(toolCallId: string): boolean;
  readonly questionTimeoutMs: number | undefined;
}

/** Draws the events of one turn as a transcript. */
export interface TurnRenderer {
  render(event: AgentEvent): void;
}

/**
 * Draws a turn: the assistant's text as it streams, one line per tool call that needs one,
 * and a note when the turn ends otherwise than finished. Every turn leaves the cursor at the
 * start of a line, after a blank line, ready for the next prompt.
 */
export function createTurnRenderer(options: TurnRendererOptions): TurnRenderer {
  const { write, style } = options;
  const text = new StreamedText(options.columns);
  const calls = new Map<string, AnnouncedCall>();

  /** Writes a line of its own; `fit` cuts it to the terminal's width. */
  function line(content: string, fit: boolean): void {
    const columns = options.columns();
    const shown =
      fit && columns !== undefined ? fitStyledLine(content, Math.max(1, columns - 1)) : content;
    write(`${text.endLine()}${shown}\n`);
  }

  return {
    render(event) {
      switch (event.type) {
        case 'text': {
          const shown = text.push(event.text);
          if (shown !== '') write(shown);
          return;
        }
        case 'tool-call':
          calls.set(event.id, event);
          // The question UI draws from the start of a line.
          if (event.name === ASK_USER_QUESTION_TOOL_NAME) write(text.endLine());
          return;
        case 'tool-result': {
          const call = calls.get(event.id) ?? {
            name: event.name,
            title: event.name,
            arguments: {},
          };
          calls.delete(event.id);
          const shown = toolActivityLine(call, event.result, {
            style,
            questionShown: options.questionShown(event.id),
            questionTimeoutMs: options.questionTimeoutMs,
          });
          // One line each: a long message is cut rather than wrapped into a second line.
          if (shown !== undefined) line(shown, true);
          return;
        }
        case 'turn-end': {
          write(text.endLine());
          // Notes wrap: they say what to do, which must not be cut off.
          for (const note of turnEndNote(event, style)) line(note, false);
          write('\n');
        }
      }
    },
  };
}
