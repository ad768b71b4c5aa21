import type { Agent } from '../agent.js';
import type {
  AskUserQuestionAnswer,
  AskUserQuestionOption,
  AskUserQuestionRequest,
} from '../ask-user-question.js';
import { invalidRequestError } from '../errors/ask-errors.js';
import { type ToolError, toToolError } from '../errors/harness-error.js';
import { REQUEST_LIMITS } from '../request-limits.js';
import type { UserInteractionCapabilities } from '../user-interaction-provider.js';
import { fieldName } from '../validation/request-field-checks.js';
import { validateRequest } from '../validation/validate-request.js';

/** The tool's name, as the model calls it. */
export const ASK_USER_QUESTION_TOOL_NAME = 'ask_user_question';

const BASE_DESCRIPTION = `Ask the person you are working for a question and wait for their answer.

Use it when you need a decision or a fact only they have: a choice between approaches, a name or path you cannot find yourself, a preference, or approval before something hard to undo. Do not ask what you can find out yourself, and ask one question at a time. Never ask for passwords, API keys, tokens or other secrets: answers are shown on screen, kept in logs and sent to you as plain text.

- question: one complete sentence, ending with a question mark.
- header: optional, a very short label (one to three words) shown above the question, such as "Database".
- options: give them when there are a few clear choices. Short labels (one to five words), a description only when the trade-off is not obvious, and a value when the program needs a precise identifier. Put the option you recommend first and mark it with recommended: true (at most one). Long lists are fine when the choice really is long.
- Do not add an "Other", "None of these" or "Something else" option: the UI itself offers the person a way to type their own answer next to the options. Set allow_custom: false only when an answer outside the options cannot be used.
- Leave options out for an open question (a name, a path, a sentence): the person types the answer.

The result is the person's answer: the chosen option's value (else its label), or the text they typed. If the result is an error, its code says why and what to do next:
- ASK_DECLINED: they chose not to answer. Continue without it, using your best judgement, and do not ask the same again.
- ASK_CANCELLED: they dismissed the question, usually to stop or redirect you. Do not ask it again; stop and wait for their next message.
- ASK_ABORTED: the question was withdrawn (the turn was cancelled). Do not assume any answer.
- ASK_TIMEOUT: nobody answered in time. Continue with a safe default, or stop if there is none.
- INPUT_CLOSED or NO_PROVIDER: nobody can answer any more. Do not ask again in this conversation.
- UNSUPPORTED: this UI cannot show that kind of question: ask with options instead.
- INVALID_REQUEST: fix the field the message names and call again.
- INVALID_ANSWER or ASK_FAILED: the UI failed to return a usable answer. You may ask once more; if it fails again, continue without it.`;

/**
 * The tool description for a UI with the given capabilities: it tells the model what the
 * UI cannot show, so the model does not keep trying.
 */
export function describeAskUserQuestionTool(capabilities?: UserInteractionCapabilities): string {
  const limits: string[] = [];
  if (capabilities?.freeForm === false) {
    limits.push(
      'This UI can only show questions with options: always give options; a question without them fails with UNSUPPORTED.',
    );
  }
  if (capabilities?.customAnswer === false) {
    limits.push(
      'This UI cannot take a typed answer: allow_custom has no effect, so make the options cover the likely answers.',
    );
  }
  return limits.length === 0 ? BASE_DESCRIPTION : `${BASE_DESCRIPTION}\n\n${limits.join('\n')}`;
}

/** The tool description for a UI that can show every kind of question. */
export const ASK_USER_QUESTION_TOOL_DESCRIPTION = describeAskUserQuestionTool();

/** JSON Schema of the tool's arguments, as sent to the model. */
export const ASK_USER_QUESTION_PARAMETERS = {
  type: 'object',
  properties: {
    question: {
      type: 'string',
      description: 'The complete question, as one sentence ending with a question mark.',
      minLength: 1,
      maxLength: REQUEST_LIMITS.questionLength,
    },
    header: {
      type: 'string',
      description: 'A very short label shown above the question (one to three words).',
      maxLength: REQUEST_LIMITS.headerLength,
    },
    options: {
      type: 'array',
      description: 'The choices, recommended one first. Leave out for an open question.',
      maxItems: REQUEST_LIMITS.options,
      items: {
        type: 'object',
        properties: {
          label: {
            type: 'string',
            description: 'What the person sees: one to five words, unique within the question.',
            minLength: 1,
            maxLength: REQUEST_LIMITS.labelLength,
          },
          value: {
            type: 'string',
            description: 'What you receive when this option is chosen; defaults to the label.',
            maxLength: REQUEST_LIMITS.valueLength,
          },
          description: {
            type: 'string',
            description: 'One sentence on the trade-off, when it is not obvious from the label.',
            maxLength: REQUEST_LIMITS.descriptionLength,
          },
          recommended: {
            type: 'boolean',
            description: 'Marks the option you recommend (at most one).',
          },
        },
        required: ['label'],
        additionalProperties: false,
      },
    },
    allow_custom: {
      type: 'boolean',
      description:
        'Whether the person may type their own answer instead of choosing an option. Default true; false when only the options can be used.',
    },
  },
  required: ['question'],
  additionalProperties: false,
} as const;

const ARGUMENT_KEYS = new Set(['question', 'header', 'options', 'allow_custom']);
const OPTION_KEYS = new Set(['label', 'value', 'description', 'recommended']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkKeys(value: Record<string, unknown>, allowed: Set<string>, prefix: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.has(key)) {
      throw invalidRequestError(
        `${prefix}${fieldName(key)}`,
        `is not an argument; allowed: ${[...allowed].join(', ')}`,
      );
    }
  }
}

function parseOption(value: unknown, index: number): AskUserQuestionOption {
  const field = `options[${index}]`;
  if (!isRecord(value))
    throw invalidRequestError(field, 'must be an object such as {"label": "Yes"}');
  checkKeys(value, OPTION_KEYS, `${field}.`);
  const option: { -readonly [K in keyof AskUserQuestionOption]: AskUserQuestionOption[K] } = {
    label: value.label as string,
  };
  if (value.value !== undefined && value.value !== null) option.value = value.value as string;
  if (value.description !== undefined && value.description !== null) {
    option.description = value.description as string;
  }
  if (value.recommended !== undefined && value.recommended !== null) {
    option.recommended = value.recommended as boolean;
  }
  return option;
}

/**
 * Turns the model's arguments (an object, or the JSON text of one) into a request, or
 * throws `INVALID_REQUEST` naming the offending field. Optional fields may be `null`.
 */
export function parseAskUserQuestionArguments(args: unknown): AskUserQuestionRequest {
  let value = args;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw invalidRequestError('arguments', 'are not valid JSON');
    }
  }
  if (!isRecord(value))
    throw invalidRequestError('arguments', 'must be a JSON object with a `question`');
  checkKeys(value, ARGUMENT_KEYS, '');
  const request: { -readonly [K in keyof AskUserQuestionRequest]: AskUserQuestionRequest[K] } = {
    question: value.question as string,
  };
  if (value.header !== undefined && value.header !== null) request.header = value.header as string;
  if (value.options !== undefined && value.options !== null) {
    if (!Array.isArray(value.options))
      throw invalidRequestError('options', 'must be an array of objects');
    request.options = value.options.map(parseOption);
  }
  const allowCustom = value.allow_custom;
  if (allowCustom !== undefined && allowCustom !== null) {
    if (typeof allowCustom !== 'boolean')
      throw invalidRequestError('allow_custom', 'must be true or false');
    request.allowCustom = allowCustom;
  }
  // The remaining rules are the contract's; their field names match the arguments'.
  return validateRequest(request);
}

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

/** The `ask_user_question` tool in one object: name, description, schema, parser, executor. */
export const askUserQuestionTool = {
  name: ASK_USER_QUESTION_TOOL_NAME,
  description: ASK_USER_QUESTION_TOOL_DESCRIPTION,
  describe: describeAskUserQuestionTool,
  parameters: ASK_USER_QUESTION_PARAMETERS,
  parse: parseAskUserQuestionArguments,
  execute: executeAskUserQuestion,
} as const;
