import type { Agent } from '../agent.js';
import type { AskUserQuestionAnswer, AskUserQuestionRequest } from '../ask-user-question.js';
import { type ToolError, toToolError } from '../errors/harness-error.js';
import { parseAskUserQuestionArguments } from './parse-ask-user-question-arguments.js';

/** What the tool hands back to the model. */
export type AskUserQuestionToolResult =
  | {
      readonly ok: true;
      /** The model-facing text: the answer. */
      readonly output: string;
      readonly answer: AskUserQuestionAnswer;
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
  readonly interaction: { ask(request: AskUserQuestionRequest): Promise<AskUserQuestionAnswer> };
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
 * Runs the tool: parses the model's arguments and asks the person. Never throws: every
 * failure comes back as an error result carrying `{ name, code, message }`.
 */
export async function executeAskUserQuestion(
  args: unknown,
  context: AskUserQuestionToolContext,
): Promise<AskUserQuestionToolResult> {
  try {
    const parsed = parseAskUserQuestionArguments(args);
    const request: AskUserQuestionRequest = {
      ...parsed,
      ...(context.agent !== undefined && { agent: context.agent }),
      ...(context.signal !== undefined && { signal: context.signal }),
      ...(context.timeoutMs !== undefined && { timeoutMs: context.timeoutMs }),
    };
    const answer = await context.interaction.ask(request);
    return { ok: true, output: answer.answer, answer };
  } catch (error) {
    return failure(error);
  }
}
