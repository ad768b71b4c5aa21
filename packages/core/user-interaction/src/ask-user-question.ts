import type { Agent } from './agent.js';

/** One choice offered to the person. */
export interface AskUserQuestionOption {
  /** What the person sees. Non-blank, unique within the question (ignoring case). */
  readonly label: string;
  /** What the model receives when this option is chosen. Defaults to `label`. */
  readonly value?: string;
  /** One or two sentences shown with the option, for trade-offs that are not obvious. */
  readonly description?: string;
  /** The option the caller suggests. At most one per question; UIs focus it first. */
  readonly recommended?: boolean;
}

/** A question for the person, as a tool or permission plugin describes it. */
export interface AskUserQuestionRequest {
  /** The full question. Non-blank. */
  readonly question: string;
  /** A short label shown above the question (for example "Database"). */
  readonly header?: string;
  /** Choices; without any, the question is free-form. */
  readonly options?: readonly AskUserQuestionOption[];
  /** Whether the person may type their own answer instead of choosing an option. Defaults to `true`. */
  readonly allowCustom?: boolean;
  /** The agent that asks; UIs use it to route the question. */
  readonly agent?: Agent;
  /** Withdraws the question when aborted. */
  readonly signal?: AbortSignal;
  /** An opt-in time limit in milliseconds; past it the ask rejects with `ASK_TIMEOUT`. */
  readonly timeoutMs?: number;
}

/** What the person answered. */
export interface AskUserQuestionAnswer {
  /** The model-facing text: the chosen option's value (else its label), or what the person typed. */
  readonly answer: string;
  /** The chosen option, as metadata; absent for a typed answer. */
  readonly option?: AskUserQuestionOption;
}
