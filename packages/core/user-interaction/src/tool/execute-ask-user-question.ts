import type { Agent } from '../agent.js';
import type { AskUserQuestionAnswer, AskUserQuestionRequest } from '../ask-user-question.js';
import type { AskUserQuestionsAnswer, AskUserQuestionsRequest } from '../ask-user-questions.js';
import { unsupportedError } from '../errors/ask-errors.js';
import { type ToolError, toToolError } from '../errors/harness-error.js';
import { optionValue } from '../question-helpers.js';
import { isQuestionsRequest, parseArgumentsFor } from './parse-ask-user-question-arguments.js';

/** What the tool hands back to the model. */
export type AskUserQuestionToolResult =
  | {
      readonly ok: true;
      /** The model-facing text: the answer. */
      readonly output: string;
      readonly answer: AskUserQuestionAnswer;
    }
  | {
      readonly ok: true;
      /** The model-facing text: `questionsAnswerText(answers)`. */
      readonly output: string;
      /** Every answer, for several questions asked at once. */
      readonly answers: AskUserQuestionsAnswer;
    }
  | {
      readonly ok: false;
      /** The model-facing text: the JSON of `error`. */
      readonly output: string;
      readonly error: ToolError;
    };

/** Where the tool asks, and on whose behalf. */
export interface AskUserQuestionToolContext {
  /** The question service of the context (usually from `createUserInteraction`). */
  readonly interaction: {
    ask(request: AskUserQuestionRequest): Promise<AskUserQuestionAnswer>;
    /** Without it, several questions at once fail with `UNSUPPORTED`. */
    askAll?(request: AskUserQuestionsRequest): Promise<AskUserQuestionsAnswer>;
  };
  /** The calling agent. */
  readonly agent?: Agent;
  /** The turn's signal: aborting it withdraws the question. */
  readonly signal?: AbortSignal;
  /** A time limit for the question. */
  readonly timeoutMs?: number;
}

function failure(error: unknown): AskUserQuestionToolResult {
  const toolError = toToolError(error);
  return { ok: false, output: JSON.stringify({ error: toolError }), error: toolError };
}

/**
 * The model-facing text of several answers: compact JSON keyed by question id, each entry with
 * `chosen` (the values of the options the person chose, in option order) and `typed` (the text
 * they typed), whichever they gave.
 */
export function questionsAnswerText(answer: AskUserQuestionsAnswer): string {
  // `fromEntries` defines each key as data, so that an id such as `__proto__` is kept as given.
  const entries = Object.fromEntries(
    answer.answers.map((item) => {
      const entry: { chosen?: string[]; typed?: string } = {};
      if (item.options.length > 0) entry.chosen = item.options.map(optionValue);
      if (item.custom !== undefined) entry.typed = item.custom;
      return [item.id, entry];
    }),
  );
  return JSON.stringify(entries);
}

/**
 * Runs the tool: parses the model's arguments and asks the person one question, or several at
 * once. Never throws: every failure comes back as an error result carrying `{ name, code, message }`.
 */
export async function executeAskUserQuestion(
  args: unknown,
  context: AskUserQuestionToolContext,
): Promise<AskUserQuestionToolResult> {
  try {
    // The request `ask` takes, checked once with the caller's fields: the service takes it as
    // it is (a request this package froze cannot change).
    // Each of the context's fields is read once: what is checked is what is asked with.
    const { interaction, agent, signal, timeoutMs } = context;
    const request = parseArgumentsFor(args, {
      ...(agent !== undefined && { agent }),
      ...(signal !== undefined && { signal }),
      ...(timeoutMs !== undefined && { timeoutMs }),
    });
    if (isQuestionsRequest(request)) {
      if (typeof interaction.askAll !== 'function') {
        throw unsupportedError(
          'several questions cannot be asked at once here; ask them one at a time',
        );
      }
      const answers = await interaction.askAll(request);
      return { ok: true, output: questionsAnswerText(answers), answers };
    }
    const answer = await interaction.ask(request);
    return { ok: true, output: answer.answer, answer };
  } catch (error) {
    return failure(error);
  }
}
