import { type ConversationEntry, type ReplayEvent, replayConversation } from 'dsh-agent';
import {
  ASK_USER_QUESTION_TOOL_NAME,
  type AskUserQuestionItemAnswer,
  type ToolError,
} from 'dsh-user-interaction';
import { type QuestionEnding, summaryLine } from '../question-ui/summary-line.js';
import { neutralizeText } from '../text/neutralize-text.js';
import { statusText } from '../text/status-line.js';
import type { TerminalStyle } from '../text/terminal-style.js';
import { StreamedText, type WrapMode } from './streamed-text.js';
import { type AnnouncedCall, approvalLine, toolActivityLine } from './tool-activity-line.js';
import { type NoteContext, turnEndNote } from './turn-end-note.js';

/** How many of a resumed conversation's turns are shown before the prompt. */
export const PAST_TURNS_SHOWN = 3;

type ToolCallEvent = Extract<ReplayEvent, { type: 'tool-call' }>;
type ToolResultEvent = Extract<ReplayEvent, { type: 'tool-result' }>;

/**
 * How a question that got no answer ended, as its summary line says it; a call cut short says
 * whether the person cancelled the turn or the program stopped in the middle of it.
 */
function endingOf(error: ToolError, interrupted: boolean): QuestionEnding {
  switch (error.code) {
    case 'ASK_DECLINED':
      return { kind: 'declined' };
    case 'ASK_CANCELLED':
      return { kind: 'cancelled' };
    case 'ASK_TIMEOUT':
      return { kind: 'timed-out' };
    case 'INPUT_CLOSED':
      return { kind: 'input-closed' };
    case 'TURN_CANCELLED':
    // An approval withdrawn because the person cancelled the turn (or the program stopped).
    case 'ASK_ABORTED':
      return { kind: interrupted ? 'interrupted' : 'cancelled' };
    default:
      return { kind: 'withdrawn' };
  }
}

/** The fields of a question in a call's arguments, as the model wrote them (unchecked). */
interface QuestionFields {
  readonly id?: unknown;
  readonly header?: unknown;
  readonly question?: unknown;
}

/** What a summary line names a question by: its header, else its question's first line. */
function titleOf(fields: QuestionFields | undefined, fallback: string): string {
  const header = fields?.header;
  const question = typeof fields?.question === 'string' ? fields.question.trim() : '';
  return neutralizeText(
    typeof header === 'string' && header.trim() !== ''
      ? header.trim()
      : (question.split('\n')[0] ?? '') || fallback,
  );
}

/** An answer to one question of a set as its summary line showed it: the options, then the text. */
function itemAnswerText(answer: AskUserQuestionItemAnswer): string {
  const parts = answer.options.map((option) => option.label.trim());
  if (answer.custom !== undefined) parts.push(answer.custom);
  return neutralizeText(parts.join(', '));
}

/**
 * A question's summary lines, as the question UI left them when it was asked: one, or one per
 * question of a set.
 */
function questionLines(
  call: ToolCallEvent,
  event: ToolResultEvent,
  interrupted: boolean,
  style: TerminalStyle,
): string[] {
  const fallback = call.title.split('\n')[0] ?? call.title;
  const args = call.arguments as { questions?: unknown } | null | undefined;
  const { result } = event;
  const ending = result.ok ? undefined : endingOf(result.error, interrupted);
  if (Array.isArray(args?.questions)) {
    const given = result.ok ? result.answers?.answers : undefined;
    return args.questions.map((item: QuestionFields | null | undefined) => {
      const title = titleOf(item ?? undefined, fallback);
      if (ending !== undefined) return summaryLine(title, ending, style);
      const answer = given?.find((candidate) => candidate.id === item?.id);
      // A result saved without its answers (by a tool of another shape): its output, as the model read it.
      const shown = answer === undefined ? neutralizeText(result.output) : itemAnswerText(answer);
      return summaryLine(title, { kind: 'answered', answer: shown }, style);
    });
  }
  const title = titleOf((args ?? undefined) as QuestionFields | undefined, fallback);
  if (!result.ok) return [summaryLine(title, endingOf(result.error, interrupted), style)];
  const answer = result.answer?.option?.label ?? result.answer?.answer ?? result.output;
  return [summaryLine(title, { kind: 'answered', answer: neutralizeText(answer) }, style)];
}

/** What ends a turn the program stopped in the middle of. */
export function interruptedNote(style: TerminalStyle): string {
  return `${style.warning(style.symbols.withdrawn)} ${style.bold('The agent stopped before this turn ended.')} ${style.dim('Type your next message to go on.')}`;
}

/** Splits replayed events into turns, each starting with its prompt. */
function turnsOf(events: Iterable<ReplayEvent>): ReplayEvent[][] {
  const turns: ReplayEvent[][] = [];
  for (const event of events) {
    if (event.type === 'prompt') turns.push([event]);
    else turns.at(-1)?.push(event);
  }
  return turns;
}

/**
 * The last turns of a resumed conversation as the transcript showed them: each prompt after
 * the prompt sign, the assistant's text, a summary line per question with the person's answer
 * (or why there was none), a line per other tool call, and how the turn ended. The context's
 * `width` and `wrap` wrap the text as a live turn does; `undefined` (a pipe) does not wrap.
 */
export function pastTurnsText(
  entries: readonly ConversationEntry[],
  context: NoteContext & { readonly wrap?: WrapMode },
  shown = PAST_TURNS_SHOWN,
): string {
  const { style, width: columns } = context;
  const turns = turnsOf(replayConversation(entries));
  if (turns.length === 0) return '';
  // Whether each turn was closed when the conversation was restored, in turn order.
  const interrupted = entries.flatMap((entry) =>
    entry.type === 'turn-end' ? [entry.reason === 'cancelled' && entry.interrupted === true] : [],
  );
  // The approvals that were put to the person (the rest were decided before anyone saw them).
  const posed = new Set(
    entries.flatMap((entry) =>
      entry.type === 'posed' && entry.kind === 'approval' ? [entry.toolCallId] : [],
    ),
  );
  const kept = turns.slice(-shown);
  const hidden = turns.length - kept.length;
  const count = `${turns.length} turn${turns.length === 1 ? '' : 's'}`;
  let out = `${style.dim(
    hidden === 0
      ? `Resumed conversation (${count}):`
      : `Resumed conversation (${count}; the last ${kept.length} shown):`,
  )}\n`;
  const text = new StreamedText(() => columns, context.wrap);
  const calls = new Map<string, ToolCallEvent>();
  const line = (content: string): void => {
    out += `${text.endLine()}${content}\n`;
  };
  for (const [index, turn] of kept.entries()) {
    const cutShort = interrupted[hidden + index] === true;
    for (const event of turn) {
      switch (event.type) {
        case 'prompt':
          line(
            `${style.bold(style.accent('>'))} ${neutralizeText(event.text, { multiline: true })}`,
          );
          break;
        case 'text':
          out += text.push(event.text);
          break;
        case 'reasoning':
          break;
        case 'tool-call':
          calls.set(event.id, event);
          break;
        case 'tool-approval': {
          const call = calls.get(event.id);
          const title = call?.title ?? event.name;
          const { decidedBy } = event.outcome;
          if (decidedBy.kind === 'unanswered' && posed.has(event.id)) {
            // It was on screen: the line the approval screen left, not "not asked".
            const ending = endingOf({ ...decidedBy, name: '' }, cutShort);
            line(summaryLine(neutralizeText(title), ending, style));
            break;
          }
          const shownLine = approvalLine(title, event.outcome, { style, shown: false });
          if (shownLine !== undefined) line(statusText(shownLine));
          break;
        }
        case 'tool-result': {
          const call = calls.get(event.id);
          if (call === undefined) break;
          if (call.name === ASK_USER_QUESTION_TOOL_NAME) {
            for (const shown of questionLines(call, event, cutShort, style)) line(shown);
            break;
          }
          const announced: AnnouncedCall = call;
          const shownLine = toolActivityLine(announced, event.result, {
            style,
            questionShown: true,
            questionTimeoutMs: undefined,
          });
          if (shownLine !== undefined) line(statusText(shownLine));
          break;
        }
        case 'turn-end':
          if (cutShort) line(interruptedNote(style));
          else for (const note of turnEndNote(event, context)) line(note);
          break;
      }
    }
    out += `${text.endLine()}\n`;
  }
  return out;
}
