import {
  type AskUserQuestionAnswer,
  type AskUserQuestionOption,
  type AskUserQuestionsAnswer,
  isUserInteractionErrorCode,
  PERMISSION_CHOICES,
  PERMISSION_KINDS,
  type PermissionChoice,
  type PermissionDecider,
  type PermissionEdit,
  type PermissionKind,
  type PermissionOutcome,
  type ToolError,
} from 'dsh-user-interaction';
import type { ModelReasoning, ModelToolCall } from '../models/model.js';
import type { TurnEndReason } from './agent-event.js';
import type {
  ToolCallDescription,
  ToolCallLocation,
  ToolResult,
  ToolResultDetails,
} from './agent-tool.js';
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

function edit(value: unknown, what: string): PermissionEdit {
  const fields = record(value, what);
  const { oldText } = fields;
  if (oldText !== null && typeof oldText !== 'string')
    fail(`${what}.oldText must be a string or null`);
  return Object.freeze({
    path: text(fields, 'path', what),
    oldText: oldText as string | null,
    newText: text(fields, 'newText', what),
  });
}

function details(value: unknown): ToolResultDetails {
  const fields = record(value, 'result.details');
  const { exit } = fields;
  let ending: ToolResultDetails['exit'];
  if (exit !== undefined) {
    const { code, signal } = record(exit, 'result.details.exit');
    if (code !== null && !Number.isSafeInteger(code))
      fail('result.details.exit.code must be a whole number or null');
    if (signal !== null && typeof signal !== 'string')
      fail('result.details.exit.signal must be a string or null');
    ending = Object.freeze({ code: code as number | null, signal: signal as string | null });
  }
  return Object.freeze({
    ...(fields.edit !== undefined && { edit: edit(fields.edit, 'result.details.edit') }),
    ...(ending !== undefined && { exit: ending }),
  });
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], what: string): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    fail(`${what} must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}

function location(value: unknown, what: string): ToolCallLocation {
  const fields = record(value, what);
  const { line } = fields;
  if (line !== undefined && !(Number.isSafeInteger(line) && (line as number) >= 0)) {
    fail(`${what}.line must be a whole number`);
  }
  return Object.freeze({
    path: text(fields, 'path', what),
    ...(line !== undefined && { line: line as number }),
  });
}

function description(value: unknown): ToolCallDescription {
  const what = 'description';
  const fields = record(value, what);
  const title = optionalText(fields, 'title', what);
  const locations =
    fields.locations === undefined
      ? undefined
      : list(fields.locations, `${what}.locations`).map((item, at) =>
          location(item, `${what}.locations[${at}]`),
        );
  let command: ToolCallDescription['command'];
  if (fields.command !== undefined) {
    const commandFields = record(fields.command, `${what}.command`);
    command = Object.freeze({
      command: text(commandFields, 'command', `${what}.command`),
      cwd: text(commandFields, 'cwd', `${what}.command`),
    });
  }
  return Object.freeze({
    kind: oneOf<PermissionKind>(fields.kind, PERMISSION_KINDS, `${what}.kind`),
    ...(title !== undefined && { title }),
    ...(locations !== undefined && { locations: Object.freeze(locations) }),
    ...(fields.edit !== undefined && { edit: edit(fields.edit, `${what}.edit`) }),
    ...(command !== undefined && { command }),
  });
}

function decider(value: unknown): PermissionDecider {
  const what = 'outcome.decidedBy';
  const fields = record(value, what);
  switch (fields.kind) {
    case 'person': {
      const rule = optionalText(fields, 'rule', what);
      return Object.freeze({
        kind: 'person',
        choice: oneOf<PermissionChoice>(fields.choice, PERMISSION_CHOICES, `${what}.choice`),
        ...(rule !== undefined && { rule }),
      });
    }
    case 'rule':
      return Object.freeze({
        kind: 'rule',
        rule: text(fields, 'rule', what),
        source: text(fields, 'source', what),
      });
    case 'policy':
      return Object.freeze({ kind: 'policy', reason: text(fields, 'reason', what) });
    case 'unanswered': {
      const { code } = fields;
      if (!isUserInteractionErrorCode(code)) fail(`${what}.code must be a user interaction code`);
      return Object.freeze({ kind: 'unanswered', code, message: text(fields, 'message', what) });
    }
    default:
      return fail(`${what}.kind must be person, rule, policy or unanswered`);
  }
}

function outcome(value: unknown): PermissionOutcome {
  const fields = record(value, 'outcome');
  const { allowed } = fields;
  if (typeof allowed !== 'boolean') fail('outcome.allowed must be true or false');
  const decidedBy = decider(fields.decidedBy);
  if (allowed && decidedBy.kind === 'unanswered')
    fail('an unanswered approval cannot allow a call');
  if (
    decidedBy.kind === 'person' &&
    allowed !== (decidedBy.choice === 'allow_once' || decidedBy.choice === 'allow_always')
  ) {
    fail('outcome.allowed does not match the person’s choice');
  }
  return Object.freeze({ allowed, decidedBy }) as PermissionOutcome;
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
      ...(fields.details !== undefined && { details: details(fields.details) }),
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
    case 'approval':
      return Object.freeze({
        type: 'approval',
        toolCallId: text(fields, 'toolCallId', 'approval'),
        description: description(fields.description),
        outcome: outcome(fields.outcome),
      });
    case 'posed':
      return Object.freeze({
        type: 'posed',
        toolCallId: text(fields, 'toolCallId', 'posed'),
        kind: oneOf(fields.kind, ['question', 'approval'] as const, 'kind'),
      });
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
