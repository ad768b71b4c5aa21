import {
  type AskUserQuestionRequest,
  type AskUserQuestionsRequest,
  askFailedError,
  type PermissionRequest,
} from 'dsh-user-interaction/provider';
import type { ScreenApproval } from './approval/approval-session.js';
import type { BatchQuestion } from './batch/batch-session.js';
import { startLineSession } from './line-mode/line-session.js';
import type { ScreenQuestion } from './question-session.js';
import type { QuestionTerminal, QuestionTiming } from './question-terminal.js';

/** A question (or several asked together) of the question UI: on screen, or waiting for its turn. */
export type QueuedQuestion = { started: boolean; deadline?: number } & (
  | { readonly kind: 'one'; readonly request: AskUserQuestionRequest; question: ScreenQuestion }
  | { readonly kind: 'all'; readonly request: AskUserQuestionsRequest; question: BatchQuestion }
  | { readonly kind: 'permission'; readonly request: PermissionRequest; question: ScreenApproval }
);

type Screens = typeof import('./screens.js');

/** The sessions other than one question in line mode, once loaded (once per process). */
let screens: Screens | undefined;
let screensLoading: Promise<Screens> | undefined;

/** Whether the sessions of `./screens.js` are loaded. */
export function screensLoaded(): boolean {
  return screens !== undefined;
}

/** Loads the sessions of `./screens.js` (once per process). */
export function loadScreens(): Promise<Screens> {
  // A failed load fails the question that waited for it, and is tried again at the next one.
  screensLoading ??= import('./screens.js').then(
    (module) => {
      screens = module;
      return module;
    },
    (error: unknown) => {
      screensLoading = undefined;
      throw error;
    },
  );
  return screensLoading;
}

/** Whether `entry` is shown by a session of `./screens.js` (all but one question in line mode). */
export function needsScreens(entry: QueuedQuestion, mode: 'interactive' | 'line'): boolean {
  return mode === 'interactive' || entry.kind !== 'one';
}

/** Shows an approval once its view is ready (an edit's diff is computed first). */
function startApproval(
  entry: Extract<QueuedQuestion, { kind: 'permission' }>,
  terminal: QuestionTerminal,
  timing: QuestionTiming,
  loaded: Screens,
): void {
  const { question } = entry;
  const { startApprovalSession, startLineApprovalSession } = loaded;
  loaded.viewOf(entry.request).then(
    (view) => {
      if (question.settled) return;
      try {
        if (terminal.mode === 'interactive')
          startApprovalSession(question, view, terminal.screen(timing));
        else startLineApprovalSession(question, view, terminal.line(timing));
      } catch (error) {
        question.reject(askFailedError(error, 'the terminal could not show the approval'));
      }
    },
    (error: unknown) => question.reject(askFailedError(error, 'the approval could not be shown')),
  );
}

/**
 * Shows `entry` on `terminal`, in the session of its kind and the terminal's mode. The
 * sessions of `./screens.js` must be loaded first when it `needsScreens`.
 */
export function startQuestion(
  entry: QueuedQuestion,
  terminal: QuestionTerminal,
  timing: QuestionTiming,
): void {
  const { mode } = terminal;
  if (!needsScreens(entry, mode)) {
    startLineSession(
      entry.question as ScreenQuestion,
      entry.request as AskUserQuestionRequest,
      terminal.line(timing),
    );
    return;
  }
  const loaded = screens as Screens;
  if (entry.kind === 'permission') {
    startApproval(entry, terminal, timing, loaded);
    return;
  }
  if (mode === 'interactive') {
    const screen = terminal.screen(timing);
    if (entry.kind === 'one') loaded.startInteractiveSession(entry.question, entry.request, screen);
    else loaded.startBatchSession(entry.question, entry.request, screen);
    return;
  }
  if (entry.kind === 'all')
    loaded.startLineBatchSession(entry.question, entry.request, terminal.line(timing));
}
