import type { ToolResult } from 'dsh-agent';
import { formatDuration } from 'dsh-agent';
import type { PermissionOutcome, ToolError } from 'dsh-user-interaction';
import { ASK_USER_QUESTION_TOOL_NAME, isUserInteractionErrorCode } from 'dsh-user-interaction';
import { neutralizeText } from '../text/neutralize-text.js';
import type { StatusLine } from '../text/status-line.js';
import type { TerminalStyle } from '../text/terminal-style.js';

/** A tool call as its `tool-call` event announced it. */
export interface AnnouncedCall {
  readonly name: string;
  readonly title: string;
  readonly arguments: unknown;
}

/** What the line of a tool result depends on besides the result. */
export interface ToolLineContext {
  readonly style: TerminalStyle;
  /** Whether the question UI took the question, and so left its own summary line. */
  readonly questionShown: boolean;
  readonly questionTimeoutMs: number | undefined;
}

/** How an unanswered question is described, by the code the model gets. */
function unanswered(error: ToolError, timeoutMs: number | undefined): string {
  const { code } = error;
  if (!isUserInteractionErrorCode(code)) return error.message;
  switch (code) {
    case 'ASK_DECLINED':
      return 'you declined';
    case 'ASK_CANCELLED':
      return 'you cancelled';
    case 'ASK_TIMEOUT':
      return timeoutMs === undefined
        ? 'timed out'
        : `no answer within ${formatDuration(timeoutMs)}`;
    case 'ASK_ABORTED':
      return 'withdrawn';
    case 'INPUT_CLOSED':
      return 'the input ended';
    case 'UNSUPPORTED':
      return 'this terminal cannot show it';
    default:
      return error.message;
  }
}

/**
 * The line an approval decided without a person on screen adds, or `undefined` for none. Its
 * tail (the rule and where it lives, the code) is never cut.
 */
export function approvalLine(
  title: string,
  outcome: PermissionOutcome,
  context: { readonly style: TerminalStyle; readonly shown: boolean },
): StatusLine | undefined {
  const { style } = context;
  const { symbols } = style;
  const { decidedBy } = outcome;
  const separator = style.dim(` ${symbols.separator} `);
  const mark = outcome.allowed ? style.success(symbols.answered) : style.warning(symbols.refused);
  const head = `${mark} ${style.bold(neutralizeText(title))}${separator}`;
  switch (decidedBy.kind) {
    case 'person': {
      // Live, the approval screen left its own summary line.
      if (context.shown) return undefined;
      const rule =
        decidedBy.rule === undefined ? '' : ` (rule \`${neutralizeText(decidedBy.rule)}\`)`;
      const said: Record<typeof decidedBy.choice, string> = {
        allow_once: 'allowed once',
        allow_always: `always allowed${rule}`,
        reject_once: 'rejected',
        reject_always: `always rejected${rule}`,
      };
      return { head, tail: [{ text: said[decidedBy.choice], style: style.accent }] };
    }
    case 'rule':
      return {
        head,
        tail: [
          {
            text: `${outcome.allowed ? 'allowed' : 'denied'} by rule \`${neutralizeText(decidedBy.rule)}\` (${neutralizeText(decidedBy.source)})`,
            style: style.dim,
          },
        ],
      };
    case 'policy':
      // Reads inside the workspace run without a word; the tool's own line says what it did.
      return outcome.allowed
        ? undefined
        : {
            head: `${head}${style.dim(`not allowed: ${neutralizeText(decidedBy.reason)}`)}`,
            tail: [],
          };
    case 'unanswered': {
      if (context.shown) return undefined;
      const reason = neutralizeText(unanswered({ name: '', ...decidedBy }, undefined));
      return {
        head: `${head}${style.dim(`denied, not asked: ${reason}`)}`,
        tail: [{ text: ` (${decidedBy.code})`, style: style.dim }],
      };
    }
  }
}

/** The question's short title, as the question UI shows it: its header, else the question. */
function questionTitle(call: AnnouncedCall): string {
  const header = (call.arguments as { header?: unknown } | null | undefined)?.header;
  return typeof header === 'string' && header.trim() !== '' ? header.trim() : call.title;
}

/**
 * The one line a tool result adds to the transcript, or `undefined` for none: an answered
 * question is already summed up by the question UI, and a call the cancel left without a
 * result is covered by the note that ends the turn. An error's code is its tail, never cut.
 */
export function toolActivityLine(
  call: AnnouncedCall,
  result: ToolResult,
  context: ToolLineContext,
): StatusLine | undefined {
  const { style } = context;
  const { symbols } = style;
  const separator = style.dim(` ${symbols.separator} `);
  const code = result.ok ? undefined : result.error.code;
  // A call the cancel left without a result, or one an approval line already said was denied.
  if (code === 'TURN_CANCELLED' || code === 'PERMISSION_DENIED') return undefined;
  const codeTail = [{ text: ` (${code})`, style: style.dim }];
  if (call.name === ASK_USER_QUESTION_TOOL_NAME) {
    if (result.ok) return undefined;
    const reason = neutralizeText(unanswered(result.error, context.questionTimeoutMs));
    if (context.questionShown) {
      return { head: style.dim(`  ↳ the agent was told: ${reason}`), tail: codeTail };
    }
    const title = neutralizeText(questionTitle(call));
    const detail = style.dim(`not asked: ${reason}`);
    return {
      head: `${style.warning(symbols.refused)} ${style.bold(title)}${separator}${detail}`,
      tail: codeTail,
    };
  }
  const name = neutralizeText(call.name);
  const title = neutralizeText(call.title);
  const label = title === name ? style.bold(name) : `${style.bold(name)}${separator}${title}`;
  if (result.ok) {
    const exit = result.details?.exit;
    const status =
      exit === undefined
        ? 'ok'
        : exit.signal !== null
          ? `ended by ${exit.signal}`
          : `exit ${exit.code}`;
    const mark =
      exit === undefined || exit.code === 0
        ? style.success(symbols.answered)
        : style.warning(symbols.refused);
    // What the sandbox stopped, for the person: the model's note says the same, and what next.
    const blocked = result.details?.blocked;
    const sandboxed =
      blocked === undefined
        ? ''
        : `${separator}${style.warning(`the sandbox blocked ${neutralizeText(blocked)}`)}`;
    return { head: `${mark} ${label}${separator}${style.dim(status)}${sandboxed}`, tail: [] };
  }
  const message = neutralizeText(result.error.message);
  return {
    head: `${style.warning(symbols.refused)} ${label}${separator}${style.dim(`failed: ${message}`)}`,
    tail: codeTail,
  };
}
