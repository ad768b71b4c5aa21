import type { AgentEvent } from 'dsh-agent';
import type { ProgramCommand } from 'dsh-agent/command-line';
import { ASK_USER_QUESTION_TOOL_NAME } from 'dsh-user-interaction';
import { neutralizeText } from '../text/neutralize-text.js';
import { fitStatusLine, type StatusLine } from '../text/status-line.js';
import type { TerminalStyle } from '../text/terminal-style.js';
import { retryNote } from './retry-note.js';
import { StreamedText, type WrapMode } from './streamed-text.js';
import { type AnnouncedCall, approvalLine, toolActivityLine } from './tool-activity-line.js';
import { turnEndNote } from './turn-end-note.js';
import { type StatusClock, TurnStatus } from './turn-status.js';

/** Where and how a turn is drawn. */
export interface TurnRendererOptions {
  /** Writes text as is; `\n` ends a line (a terminal writer turns it into `\r\n`). */
  write(text: string): void;
  readonly style: TerminalStyle;
  /** Columns a line may take before the terminal wraps it, or `undefined` for a pipe. */
  columns(): number | undefined;
  /** How the text wraps at the edge: `hold` writes no escape sequence (default: `redraw`). */
  readonly wrap?: WrapMode;
  /** Whether the question UI took the question of this tool call (and left a summary line). */
  questionShown(toolCallId: string): boolean;
  readonly questionTimeoutMs: number | undefined;
  /** Print the model's reasoning (dimmed) before its answer, instead of a "Thinking…" status. */
  readonly showThinking?: boolean;
  /** Show the transient status line (a terminal only: never in a pipe or a log). */
  readonly status?: boolean;
  /** The status line's clock (tests move it by hand). */
  readonly clock?: StatusClock;
  /** The command as the person started it, for the hints that name it. */
  readonly command: ProgramCommand;
  /** The input is a pipe: the notes name no key (default: false). */
  readonly piped?: boolean;
  /** Where an "always" answer keeps its rule: said under the approval once it is saved. */
  readonly rulesFile?: string;
}

/** Whether the person's "always" answer to this approval wrote a rule. */
function savedRule(event: Extract<AgentEvent, { type: 'tool-approval' }>): boolean {
  const { decidedBy } = event.outcome;
  return decidedBy.kind === 'person' && decidedBy.rule !== undefined;
}

/** Draws the events of one turn as a transcript. */
export interface TurnRenderer {
  render(event: AgentEvent): void;
  /** Stops the status line (the turn ended, or nobody waits for it any more). Idempotent. */
  close(): void;
}

/**
 * Draws a turn: the assistant's text as it streams, one line per tool call that needs one,
 * and a note when the turn ends otherwise than finished. Every turn leaves the cursor at the
 * start of a line, after a blank line, ready for the next prompt.
 */
export function createTurnRenderer(options: TurnRendererOptions): TurnRenderer {
  const { style } = options;
  const text = new StreamedText(options.columns, options.wrap);
  const calls = new Map<string, AnnouncedCall>();
  const status =
    options.status === true
      ? new TurnStatus({
          write: options.write,
          style,
          columns: () => options.columns() ?? 0,
          column: () => text.column,
          ...(options.clock !== undefined && { clock: options.clock }),
        })
      : undefined;
  /** Whether the reasoning being printed is on screen, not yet followed by the answer. */
  let reasoningShown = false;
  let closed = false;
  // The model is asked as soon as the turn starts.
  status?.expect();

  /** Writes text; the status line, if shown, is erased first. */
  function write(shown: string, erase = ''): void {
    if (erase !== '' || shown !== '') options.write(erase + shown);
  }

  /** Styles text the way it was pushed: reasoning dimmed. */
  function shownAs(shown: string): string {
    return shown !== '' && reasoningShown ? style.dim(shown) : shown;
  }

  /** The answer (or a tool call) follows printed reasoning: it starts on a line of its own. */
  function endReasoning(): string {
    if (!reasoningShown) return '';
    // A word held back is written first, and looks like the rest of the reasoning.
    const shown = endLine();
    reasoningShown = false;
    return shown;
  }

  /** Ends the text's line, writing the word held back first. */
  function endLine(): string {
    return shownAs(text.flush()) + text.endLine();
  }

  /** Writes a line of its own. */
  function line(content: string): void {
    write(`${endLine()}${content}\n`);
  }

  /** Writes a status line within the terminal's width: its head cut, its tail whole. */
  function statusLine(shown: StatusLine): void {
    write(`${endLine()}${fitStatusLine(shown, width()).join('\n')}\n`);
  }

  /** The columns a line of its own may take, or `undefined` for a pipe. */
  function width(): number | undefined {
    const columns = options.columns();
    // The last column is left free: a terminal that wrote it waits to wrap.
    return columns === undefined ? undefined : Math.max(1, columns - 1);
  }

  return {
    render(event) {
      if (closed) return;
      switch (event.type) {
        case 'reasoning': {
          if (options.showThinking !== true) {
            write('', status?.thinking() ?? '');
            return;
          }
          const erase = status?.expect() ?? '';
          // Text held back before the reasoning keeps its own look.
          const held = reasoningShown ? '' : text.flush();
          const shown = text.push(event.text);
          reasoningShown = true;
          write(held + shownAs(shown), erase);
          return;
        }
        case 'text': {
          const erase = status?.expect() ?? '';
          write(endReasoning() + text.push(event.text), erase);
          return;
        }
        case 'tool-call': {
          calls.set(event.id, event);
          const erase = status?.clear() ?? '';
          // The question UI, and the approval of a call that says what it does, draw from the
          // start of a line.
          const end =
            event.name === ASK_USER_QUESTION_TOOL_NAME || event.description !== undefined
              ? endLine()
              : reasoningShown
                ? endReasoning()
                : text.flush();
          write(end, erase);
          return;
        }
        case 'tool-approval': {
          const call = calls.get(event.id);
          const shown = approvalLine(call?.title ?? event.name, event.outcome, {
            style,
            shown: options.questionShown(event.id),
          });
          if (shown !== undefined) statusLine(shown);
          if (event.warning !== undefined) line(style.warning(neutralizeText(event.warning)));
          else if (savedRule(event) && options.rulesFile !== undefined) {
            // Whole, never cut: it says where to undo the rule.
            line(style.dim(`  ↳ rule saved in ${neutralizeText(options.rulesFile)}`));
          }
          return;
        }
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
          // One line each where it fits: a long message is cut, its code never.
          if (shown !== undefined) statusLine(shown);
          // The model is asked again with the result.
          status?.expect();
          return;
        }
        case 'retry': {
          write(endLine(), status?.clear() ?? '');
          reasoningShown = false;
          for (const note of retryNote(event, style, width())) line(note);
          // The model is asked again (after the pause the note gives).
          status?.expect();
          return;
        }
        case 'turn-end': {
          write(endLine(), status?.clear() ?? '');
          reasoningShown = false;
          // Notes wrap at words: they say what to do, which must not be cut off.
          const notes = turnEndNote(event, {
            style,
            width: width(),
            command: options.command,
            piped: options.piped === true,
          });
          for (const note of notes) line(note);
          write('\n');
          closed = true;
        }
      }
    },
    close() {
      if (closed) return;
      closed = true;
      write(shownAs(text.flush()), status?.clear() ?? '');
    },
  };
}
