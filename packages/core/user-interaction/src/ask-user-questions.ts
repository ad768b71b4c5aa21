import type { Agent } from './agent.js';
import type { AskUserQuestionOption } from './ask-user-question.js';

/** One question of several asked at once. */
export interface AskUserQuestionItem {
  /** Names the question in the answer: unique in the request, 1 to 64 of `A-Z a-z 0-9 _ -`. */
  readonly id: string;
  /** The full question. Non-blank. */
  readonly question: string;
  /** A short label shown above the question (for example "Database"). */
  readonly header?: string;
  /** Choices; without any, the question is free-form. */
  readonly options?: readonly AskUserQuestionOption[];
  /** Whether the person may type their own answer next to the options. Defaults to `true`. */
  readonly allowCustom?: boolean;
  /** Whether the person may choose several options. Needs options. */
  readonly multiSelect?: boolean;
}

/** Several questions for the person, shown and answered together. */
export interface AskUserQuestionsRequest {
  /** The questions, 1 to 10, in the order they are shown. */
  readonly questions: readonly AskUserQuestionItem[];
  /** A short label for the whole set. */
  readonly header?: string;
  /** The agent that asks; UIs use it to route the questions. */
  readonly agent?: Agent;
  /** Withdraws every question when aborted. */
  readonly signal?: AbortSignal;
  /** An opt-in time limit in milliseconds for the whole set; past it the ask rejects with `ASK_TIMEOUT`. */
  readonly timeoutMs?: number;
}

/** What the person answered to one question of several. */
export interface AskUserQuestionItemAnswer {
  /** The question's `id`. */
  readonly id: string;
  /** Model-facing: the chosen options' values (else labels) in option order, then the typed text. */
  readonly answers: readonly string[];
  /** The chosen options, in option order; empty when the person only typed. */
  readonly options: readonly AskUserQuestionOption[];
  /** The text the person typed, when they typed one. */
  readonly custom?: string;
}

/** What the person answered to every question, in question order. */
export interface AskUserQuestionsAnswer {
  readonly answers: readonly AskUserQuestionItemAnswer[];
}
