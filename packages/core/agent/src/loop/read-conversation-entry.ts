import type {
  AskUserQuestionAnswer,
  AskUserQuestionOption,
  AskUserQuestionsAnswer,
  ToolError,
} from 'dsh-user-interaction';
import type { ModelReasoning, ModelToolCall } from '../models/model.js';
import type { TurnEndReason } from './agent-event.js';
import type { ToolResult } from './agent-tool.js';
import type { ConversationEntry } from './conversation-entry.js';

type Fields = Record<string, unknown>;

/** Thrown inside the reader with what is wrong; it never leaves this module. */
class Problem {
  constructor(readonly text: string) {}
}

function fail(text: string): never {
  throw new Problem(text);
}

function record(value: unknown, what: string): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(`${what} must be an object`);
  }
  return value as Fields;
}

function text(fields: Fields, key: string, what: string): string {
  const value = fields[key];
  if (typeof value !== 'string') fail(`${what}.${key} must be a string`);
  return value;
}

function optionalText(fields: Fields, key: string, what: string): string | undefined {
  return fields[key] === undefined ? undefined : text(fields, key, what);
}

function toolCall(value: unknown, what: string): ModelToolCall {
  const fields = record(value, what);
  const id = text(fields, 'id', what);
  if (id === '') fail(`${what}.id must not be empty`);
  return Object.freeze({
    id,
    name: text(fields, 'name', what),
    arguments: text(fields, 'arguments', what),
  });
}

function reasoning(value: unknown): ModelReasoning {
  const fields = record(value, 'reasoning');
  const field = optionalText(fields, 'field', 'reasoning');
  const reasoningText = text(fields, 'text', 'reasoning');
  return Object.freeze(
    field === undefined ? { text: reasoningText } : { text: reasoningText, field },
  );
}

function toolError(value: unknown, what: string): ToolError {
  const fields = record(value, what);
  return Object.freeze({
    name: text(fields, 'name', what),
    code: text(fields, 'code', what),
    message: text(fields, 'message', what),
  });
}

function option(value: unknown, what: string): AskUserQuestionOption {
  const fields = record(value, what);
  const { recommended } = fields;
  if (recommended !== undefined && typeof recommended !== 'boolean') {
    fail(`${what}.recommended must be true or false`);
  }
  const value_ = optionalText(fields, 'value', what);
  const description = optionalText(fields, 'description', what);
  return Object.freeze({
    label: text(fields, 'label', what),
    ...(value_ !== undefined && { value: value_ }),
    ...(description !== undefined && { description }),
    ...(recommended !== undefined && { recommended }),
  });
}

function answer(value: unknown): AskUserQuestionAnswer {
  const fields = record(value, 'result.answer');
  return Object.freeze({
    answer: text(fields, 'answer', 'result.answer'),
    ...(fields.option !== undefined && { option: option(fields.option, 'result.answer.option') }),
  });
}

function list(value: unknown, what: string): readonly unknown[] {
  if (!Array.isArray(value)) fail(`${what} must be a list`);
  return value;
}

/** The answers to several questions asked at once, one per question. */
function itemAnswers(value: unknown): AskUserQuestionsAnswer {
  const items = list(record(value, 'result.answers').answers, 'result.answers.answers');
  return Object.freeze({
    answers: Object.freeze(
      items.map((item, index) => {
        const what = `result.answers.answers[${index}]`;
        const fields = record(item, what);
        const answers = list(fields.answers, `${what}.answers`).map((answer, at) => {
          if (typeof answer !== 'string') fail(`${what}.answers[${at}] must be a string`);
          return answer;
        });
        const options = list(fields.options, `${what}.options`).map((chosen, at) =>
          option(chosen, `${what}.options[${at}]`),
        );
        const custom = optionalText(fields, 'custom', what);
        return Object.freeze({
          id: text(fields, 'id', what),
          answers: Object.freeze(answers),
          options: Object.freeze(options),
          ...(custom !== undefined && { custom }),
        });
      }),
    ),
  });
}

function toolResult(value: unknown): ToolResult {
  const fields = record(value, 'result');
  const output = text(fields, 'output', 'result');
  if (fields.ok === true) {
    return Object.freeze({
      ok: true,
      output,
      ...(fields.answer !== undefined && { answer: answer(fields.answer) }),
      ...(fields.answers !== undefined && { answers: itemAnswers(fields.answers) }),
    });
  }
  if (fields.ok !== false) fail('result.ok must be true or false');
  return Object.freeze({ ok: false, output, error: toolError(fields.error, 'result.error') });
}

const REASONS: readonly TurnEndReason[] = ['finished', 'cancelled', 'step-limit', 'error'];

function turnEnd(fields: Fields): ConversationEntry {
  const reason = fields.reason as TurnEndReason;
  if (!REASONS.includes(reason)) fail(`reason must be one of ${REASONS.join(', ')}`);
  if (reason === 'step-limit' || reason === 'error') {
    return Object.freeze({ type: 'turn-end', reason, error: toolError(fields.error, 'error') });
  }
  const { interrupted } = fields;
  if (interrupted !== undefined && typeof interrupted !== 'boolean') {
    fail('interrupted must be true or false');
  }
  if (fields.error !== undefined) fail(`a turn that ended ${reason} has no error`);
  return Object.freeze({ type: 'turn-end', reason, ...(interrupted === true && { interrupted }) });
}

function entryOf(fields: Fields): ConversationEntry {
  switch (fields.type) {
    case 'prompt':
      return Object.freeze({ type: 'prompt', text: text(fields, 'text', 'prompt') });
    case 'assistant': {
      const { toolCalls } = fields;
      if (toolCalls !== undefined && !Array.isArray(toolCalls)) fail('toolCalls must be an array');
      const calls = (toolCalls ?? []).map((call, index) => toolCall(call, `toolCalls[${index}]`));
      return Object.freeze({
        type: 'assistant',
        text: text(fields, 'text', 'assistant'),
        ...(calls.length > 0 && { toolCalls: Object.freeze(calls) }),
        ...(fields.reasoning !== undefined && { reasoning: reasoning(fields.reasoning) }),
      });
    }
    case 'tool-result':
      return Object.freeze({
        type: 'tool-result',
        toolCallId: text(fields, 'toolCallId', 'tool-result'),
        result: toolResult(fields.result),
      });
    case 'turn-end':
      return turnEnd(fields);
    default:
      return fail(`type ${JSON.stringify(fields.type)} is not a conversation entry`);
  }
}

/**
 * Reads a value that should be a `ConversationEntry` (from a file, or from a caller): a fresh,
 * frozen copy of its known fields, or what is wrong with it. Other fields are left out.
 */
export function readConversationEntry(
  value: unknown,
): { readonly entry: ConversationEntry } | { readonly problem: string } {
  try {
    return { entry: entryOf(record(value, 'the entry')) };
  } catch (error) {
    if (error instanceof Problem) return { problem: error.text };
    throw error;
  }
}
