import { fitStyledLine } from '../../text/fit-styled-line.js';
import type { TerminalStyle } from '../../text/terminal-style.js';
import { textWidth, truncateText, wrapText } from '../../text/text-width.js';
import { type StyledRun, wrapStyledLine } from '../../text/wrap-styled-line.js';
import { withWindow } from '../menu/menu-state.js';
import { renderMenu, type ScreenSize } from '../menu/render-menu.js';
import type { QuestionView } from '../question-view.js';
import { batchAnswerParts } from './batch-answer-text.js';
import {
  answeredCount,
  type BatchState,
  hasAnswer,
  onReview,
  pageAnswer,
  withPageMenu,
} from './batch-state.js';

/** Columns a question's name takes at most in the line of pages. */
const PAGE_NAME_WIDTH = 20;

/** One frame of several questions, and the state with what the layout decided. */
export interface BatchFrame {
  readonly lines: readonly string[];
  readonly state: BatchState;
}

/**
 * The line above every page: where the person is ("Question 2 of 3"), then every question by
 * name, answered ones marked, the page shown in brackets, and the review last.
 */
function pagesLine(
  views: readonly QuestionView[],
  state: BatchState,
  width: number,
  style: TerminalStyle,
): string {
  // Most keys change neither the page nor which questions have answers: draw the line once.
  let key = `${state.page} ${width}`;
  for (let index = 0; index < views.length; index++) key += hasAnswer(state, index) ? '1' : '0';
  const cached = pagesLines.get(views);
  if (cached?.key === key && cached.style === style) return cached.line;
  const line = drawPagesLine(views, state, width, style);
  pagesLines.set(views, { key, style, line });
  return line;
}

const pagesLines = new WeakMap<
  readonly QuestionView[],
  { readonly key: string; readonly style: TerminalStyle; readonly line: string }
>();

function drawPagesLine(
  views: readonly QuestionView[],
  state: BatchState,
  width: number,
  style: TerminalStyle,
): string {
  const count = views.length;
  const place = onReview(state) ? 'Review' : `Question ${state.page + 1} of ${count}`;
  const review = onReview(state) ? style.accent(style.bold('[Review]')) : style.dim('Review');
  const separator = style.dim(` ${style.symbols.separator} `);
  // Names get shorter until the line fits, then give way to numbers, then the place goes (the
  // brackets still show it): the marks of the answered questions must never be cut off.
  const forms: [number, boolean][] = [
    [PAGE_NAME_WIDTH, true],
    [12, true],
    [8, true],
    [5, true],
    [0, true],
    [0, false],
  ];
  let line = '';
  for (const [nameWidth, withPlace] of forms) {
    const names = views.map((view, index) => {
      const name = nameWidth === 0 ? String(index + 1) : truncateText(view.title, nameWidth);
      const shown = index === state.page ? style.accent(style.bold(`[${name}]`)) : style.dim(name);
      if (!hasAnswer(state, index)) return shown;
      const mark = style.success(style.symbols.answered);
      return nameWidth === 0 ? `${mark}${shown}` : `${mark} ${shown}`;
    });
    const joined = [...names, review].join(nameWidth === 0 ? ' ' : separator);
    line = withPlace ? `${style.bold(place)}  ${joined}` : joined;
    if (textWidth(line.replace(STYLE, '')) <= width) return line;
  }
  return fitStyledLine(line, width);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching escape sequences is the point.
const STYLE = /\u001b\[[0-9;]*m/g;

/** Hints joined by `separator` into lines of at most `width` columns, cut only when one is wider. */
function wrapHints(hints: readonly string[], separator: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const hint of hints) {
    const joined = line === '' ? hint : `${line}${separator}${hint}`;
    if (line !== '' && textWidth(joined) > width) {
      lines.push(line);
      line = hint;
    } else {
      line = joined;
    }
  }
  lines.push(line);
  return lines.map((text) => truncateText(text, width));
}

function joinRuns(runs: readonly StyledRun[]): string {
  return runs.map((run) => (run.style === undefined ? run.text : run.style(run.text))).join('');
}

/**
 * Every answer in `room` rows: one row each, then the rows left go to answers that need more,
 * in order, wrapped at words; an answer still cut ends with `…`.
 */
function answerLines(
  answers: readonly (readonly StyledRun[])[],
  width: number,
  room: number,
  indent: string,
  style: TerminalStyle,
): string[] {
  let spare = room - answers.length;
  const lines: string[] = [];
  for (const runs of answers) {
    // Only what could be shown is wrapped: a typed answer may be 100,000 characters long.
    const limit = width * (spare + 1);
    const capped = runs.map((run) => ({ ...run, text: truncateText(run.text, limit) }));
    const wrapped = wrapStyledLine(capped, width, indent);
    const taken = Math.min(wrapped.length, spare + 1);
    spare -= taken - 1;
    const kept = wrapped.slice(0, taken);
    const cut =
      taken < wrapped.length || runs.some((run, index) => run.text !== capped[index]?.text);
    if (cut) {
      const last = kept.length - 1;
      kept[last] = `${fitStyledLine(kept[last] as string, width - 1)}${style.dim('…')}`;
    }
    lines.push(...kept);
  }
  return lines;
}

/** The review: every answer, and how to submit or go back. */
function reviewLines(
  views: readonly QuestionView[],
  state: BatchState,
  width: number,
  rows: number,
  style: TerminalStyle,
  header: string | undefined,
): string[] {
  const count = views.length;
  const { symbols } = style;
  const separator = ` ${symbols.separator} `;
  const numberWidth = String(count).length;
  const answerRuns = views.map((view, index) => {
    const number = `${String(index + 1).padStart(numberWidth)}.`;
    const runs: StyledRun[] = [
      { text: '  ' },
      { text: number, style: style.dim },
      { text: ' ' },
      { text: view.title, style: style.bold },
      { text: separator, style: style.dim },
    ];
    const answer = pageAnswer(state, index);
    if (answer === undefined) return [...runs, { text: 'not answered yet', style: style.warning }];
    const { chosen, typed } = batchAnswerParts(view, answer);
    if (chosen !== undefined) runs.push({ text: chosen });
    if (typed !== undefined) {
      if (chosen !== undefined) runs.push({ text: ', ' });
      // Text the person typed, told apart from an option's label (a question with no options
      // takes nothing else).
      if (view.optionCount > 0) runs.push({ text: 'typed: ', style: style.dim });
      runs.push({ text: typed });
    }
    return runs;
  });
  const numbers = count === 1 ? '1' : count <= 9 ? `1-${count}` : '1-9, 0';
  const hints = wrapHints(
    [
      'Enter submit',
      `${numbers} change an answer`,
      'Shift+Tab back',
      'Esc decline',
      'Ctrl+C cancel',
    ],
    separator,
    width,
  );
  const notice =
    state.unanswered >= 0
      ? [
          style.warning(
            truncateText(
              `Question ${state.unanswered + 1} has no answer yet: press ${(state.unanswered + 1) % 10} to answer it.`,
              width,
            ),
          ),
        ]
      : [];
  const named = header === undefined ? 'Review your answers' : `${header}: Review your answers`;
  const title = fitStyledLine(`${style.accent(symbols.question)} ${style.bold(named)}`, width);
  const room = Math.max(1, rows - 1 - hints.length - notice.length);
  const shown =
    answerRuns.length <= room
      ? answerLines(answerRuns, width, room, ' '.repeat(numberWidth + 4), style)
      : [
          ...answerRuns.slice(0, room - 1).map((runs) => fitStyledLine(joinRuns(runs), width)),
          style.dim('  …'),
        ];
  return [title, ...shown, ...notice, ...hints.map((line) => style.dim(line))];
}

/** What Esc asks when answers would be lost: said whole, wrapped to the width. */
function confirmLines(
  count: number,
  state: BatchState,
  width: number,
  style: TerminalStyle,
): string[] {
  const answered = answeredCount(state);
  const lost = answered === 1 ? 'The answer you gave is' : `The ${answered} answers you gave are`;
  const text = `Decline all ${count} questions? ${lost} not sent. Esc again: decline all · any other key: go back`;
  return wrapText(text, width).map((line) => style.warning(line));
}

/**
 * Lays out several questions for a terminal of `size`: the line of pages, then the question
 * of the page as `renderMenu` draws it in the rows left (or the review, under the set's
 * `header`, which must be neutralised). A single question is drawn as it would be alone.
 */
export function renderBatch(
  views: readonly QuestionView[],
  state: BatchState,
  size: ScreenSize,
  style: TerminalStyle,
  header?: string,
): BatchFrame {
  const width = Math.max(8, size.columns - 1);
  const several = views.length > 1;
  const top = several ? [pagesLine(views, state, width, style)] : [];
  if (state.confirmingDecline) top.push(...confirmLines(views.length, state, width, style));
  const rows = { columns: size.columns, rows: Math.max(2, size.rows - top.length) };
  if (onReview(state)) {
    const review = reviewLines(views, state, width, rows.rows - 1, style, header);
    return { lines: [...top, ...review], state };
  }
  const view = views[state.page] as QuestionView;
  const menu = state.menus[state.page];
  if (menu === undefined) return { lines: top, state };
  const drawn = renderMenu(view, menu, rows, style, { oneOfSeveral: several });
  return {
    lines: [...top, ...drawn.lines],
    state: withPageMenu(state, withWindow(menu, drawn.top, drawn.page)),
  };
}
