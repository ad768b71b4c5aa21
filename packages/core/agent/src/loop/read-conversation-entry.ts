import {
  type AskUserQuestionAnswer,
  type AskUserQuestionItemAnswer,
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
  type PermissionSandbox,
  type SandboxConfinement,
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

/** The longest state a tool may keep with a posed question (`ToolContext.recordPending`). */
export const POSED_STATE_LIMIT = 1_000_000;

/** Every `SandboxConfinement`: the type below fails to compile when the contract adds one. */
const SANDBOX_CONFINEMENTS = ['sandboxed', 'network', 'none'] as const;
const everyConfinement: Exclude<
  SandboxConfinement,
  (typeof SANDBOX_CONFINEMENTS)[number]
> extends never
  ? true
  : never = true;
void everyConfinement;

/** Thrown inside the reader with what is wrong; it never leaves this module. */
class Problem {
  constructor(readonly text: string) {}
}

function fail(text: string): never {
  throw new Problem(text);
}

/**
 * How a value is read. A caller's value may be anything (getters, a Proxy) and is copied: each
 * field read once, into a fresh frozen object. A value fresh from `JSON.parse` is plain data
 * that nobody else holds: it is checked where it lies and kept as it is, unless a field must be
 * left out (one this format does not know, an empty list, a `false` that means nothing).
 */
type Mode = 'copy' | 'keep';

function record(value: unknown, what: string): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(`${what} must be an object`);
  }
  return value as Fields;
}

/** Whether a parsed object has `known` fields and no others: it is then kept as it is. */
function exactly(fields: Fields, known: number): boolean {
  let count = 0;
  for (const _ in fields) if (++count > known) return false;
  return count === known;
}

/**
 * `fields` itself when `mode` keeps it and it has no other fields than `known`. It is not
 * frozen: freezing a parsed object costs as much as copying it, and nobody else holds it.
 */
function keptAs<T>(mode: Mode, fields: Fields, known: number): T | undefined {
  return mode === 'keep' && exactly(fields, known) ? (fields as T) : undefined;
}

function text(fields: Fields, key: string, what: string): string {
  const value = fields[key];
  if (typeof value !== 'string') fail(`${what}.${key} must be a string`);
  return value;
}

function optionalText(fields: Fields, key: string, what: string): string | undefined {
  return fields[key] === undefined ? undefined : text(fields, key, what);
}

/** The items of a list, each read by `read`: the list itself if every item was kept, else a frozen copy. */
function listOf<T>(
  items: readonly unknown[],
  mode: Mode,
  read: (item: unknown, at: number) => T,
): readonly T[] {
  let copy: T[] | undefined;
  for (let at = 0; at < items.length; at++) {
    const item = items[at];
    const read_ = read(item, at);
    if (copy === undefined && (mode === 'copy' || read_ !== item))
      copy = at === 0 ? [] : (items.slice(0, at) as T[]);
    copy?.push(read_);
  }
  return copy === undefined ? (items as T[]) : Object.freeze(copy);
}

function toolCall(value: unknown, what: string, mode: Mode): ModelToolCall {
  const fields = record(value, what);
  const id = text(fields, 'id', what);
  if (id === '') fail(`${what}.id must not be empty`);
  const name = text(fields, 'name', what);
  const args = text(fields, 'arguments', what);
  return keptAs(mode, fields, 3) ?? Object.freeze({ id, name, arguments: args });
}

function reasoning(value: unknown, mode: Mode): ModelReasoning {
  const fields = record(value, 'reasoning');
  const field = optionalText(fields, 'field', 'reasoning');
  const reasoningText = text(fields, 'text', 'reasoning');
  return (
    keptAs(mode, fields, field === undefined ? 1 : 2) ??
    Object.freeze(field === undefined ? { text: reasoningText } : { text: reasoningText, field })
  );
}

function toolError(value: unknown, what: string, mode: Mode): ToolError {
  const fields = record(value, what);
  const name = text(fields, 'name', what);
  const code = text(fields, 'code', what);
  const message = text(fields, 'message', what);
  return keptAs(mode, fields, 3) ?? Object.freeze({ name, code, message });
}

function option(value: unknown, what: string, mode: Mode): AskUserQuestionOption {
  const fields = record(value, what);
  const { recommended } = fields;
  if (recommended !== undefined && typeof recommended !== 'boolean') {
    fail(`${what}.recommended must be true or false`);
  }
  const value_ = optionalText(fields, 'value', what);
  const description = optionalText(fields, 'description', what);
  const label = text(fields, 'label', what);
  const known =
    1 + +(value_ !== undefined) + +(description !== undefined) + +(recommended !== undefined);
  return (
    keptAs(mode, fields, known) ??
    Object.freeze({
      label,
      ...(value_ !== undefined && { value: value_ }),
      ...(description !== undefined && { description }),
      ...(recommended !== undefined && { recommended }),
    })
  );
}

function answer(value: unknown, mode: Mode): AskUserQuestionAnswer {
  const fields = record(value, 'result.answer');
  const answerText = text(fields, 'answer', 'result.answer');
  const chosen =
    fields.option === undefined ? undefined : option(fields.option, 'result.answer.option', mode);
  return (
    (chosen === fields.option ? keptAs(mode, fields, chosen === undefined ? 1 : 2) : undefined) ??
    Object.freeze({ answer: answerText, ...(chosen !== undefined && { option: chosen }) })
  );
}

function list(value: unknown, what: string): readonly unknown[] {
  if (!Array.isArray(value)) fail(`${what} must be a list`);
  return value;
}

/** The answers to several questions asked at once, one per question. */
function itemAnswers(value: unknown, mode: Mode): AskUserQuestionsAnswer {
  const fields = record(value, 'result.answers');
  const items = list(fields.answers, 'result.answers.answers');
  const read = listOf(items, mode, (item, index): AskUserQuestionItemAnswer => {
    const what = `result.answers.answers[${index}]`;
    const itemFields = record(item, what);
    const answers = listOf(list(itemFields.answers, `${what}.answers`), mode, (answer, at) => {
      if (typeof answer !== 'string') fail(`${what}.answers[${at}] must be a string`);
      return answer;
    });
    const options = listOf(list(itemFields.options, `${what}.options`), mode, (chosen, at) =>
      option(chosen, `${what}.options[${at}]`, mode),
    );
    const custom = optionalText(itemFields, 'custom', what);
    const id = text(itemFields, 'id', what);
    return (
      (answers === itemFields.answers && options === itemFields.options
        ? keptAs(mode, itemFields, custom === undefined ? 3 : 4)
        : undefined) ??
      Object.freeze({ id, answers, options, ...(custom !== undefined && { custom }) })
    );
  });
  return (read === items ? keptAs(mode, fields, 1) : undefined) ?? Object.freeze({ answers: read });
}

function edit(value: unknown, what: string, mode: Mode): PermissionEdit {
  const fields = record(value, what);
  const { oldText } = fields;
  if (oldText !== null && typeof oldText !== 'string')
    fail(`${what}.oldText must be a string or null`);
  const path = text(fields, 'path', what);
  const newText = text(fields, 'newText', what);
  return (
    keptAs(mode, fields, 3) ?? Object.freeze({ path, oldText: oldText as string | null, newText })
  );
}

function details(value: unknown, mode: Mode): ToolResultDetails {
  const fields = record(value, 'result.details');
  const { exit } = fields;
  let ending: ToolResultDetails['exit'];
  if (exit !== undefined) {
    const exitFields = record(exit, 'result.details.exit');
    const { code, signal } = exitFields;
    if (code !== null && !Number.isSafeInteger(code))
      fail('result.details.exit.code must be a whole number or null');
    if (signal !== null && typeof signal !== 'string')
      fail('result.details.exit.signal must be a string or null');
    ending =
      keptAs(mode, exitFields, 2) ??
      Object.freeze({ code: code as number | null, signal: signal as string | null });
  }
  const changed =
    fields.edit === undefined ? undefined : edit(fields.edit, 'result.details.edit', mode);
  const blocked = optionalText(fields, 'blocked', 'result.details');
  const known = +(changed !== undefined) + +(ending !== undefined) + +(blocked !== undefined);
  return (
    (changed === fields.edit && ending === exit ? keptAs(mode, fields, known) : undefined) ??
    Object.freeze({
      ...(changed !== undefined && { edit: changed }),
      ...(ending !== undefined && { exit: ending }),
      ...(blocked !== undefined && { blocked }),
    })
  );
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], what: string): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    fail(`${what} must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}

function location(value: unknown, what: string, mode: Mode): ToolCallLocation {
  const fields = record(value, what);
  const { line } = fields;
  if (line !== undefined && !(Number.isSafeInteger(line) && (line as number) >= 0)) {
    fail(`${what}.line must be a whole number`);
  }
  const path = text(fields, 'path', what);
  return (
    keptAs(mode, fields, line === undefined ? 1 : 2) ??
    Object.freeze({ path, ...(line !== undefined && { line: line as number }) })
  );
}

function description(value: unknown, mode: Mode): ToolCallDescription {
  const what = 'description';
  const fields = record(value, what);
  const title = optionalText(fields, 'title', what);
  const locations =
    fields.locations === undefined
      ? undefined
      : listOf(list(fields.locations, `${what}.locations`), mode, (item, at) =>
          location(item, `${what}.locations[${at}]`, mode),
        );
  let command: ToolCallDescription['command'];
  if (fields.command !== undefined) {
    const commandFields = record(fields.command, `${what}.command`);
    const commandText = text(commandFields, 'command', `${what}.command`);
    const cwd = text(commandFields, 'cwd', `${what}.command`);
    let sandbox: PermissionSandbox | undefined;
    if (commandFields.sandbox !== undefined) {
      const sandboxFields = record(commandFields.sandbox, `${what}.command.sandbox`);
      sandbox = {
        confinement: oneOf<SandboxConfinement>(
          sandboxFields.confinement,
          SANDBOX_CONFINEMENTS,
          `${what}.command.sandbox.confinement`,
        ),
        note: text(sandboxFields, 'note', `${what}.command.sandbox`),
      };
    }
    command =
      (sandbox === undefined ? keptAs(mode, commandFields, 2) : undefined) ??
      Object.freeze({
        command: commandText,
        cwd,
        ...(sandbox !== undefined && { sandbox: Object.freeze(sandbox) }),
      });
  }
  const kind = oneOf<PermissionKind>(fields.kind, PERMISSION_KINDS, `${what}.kind`);
  const changed = fields.edit === undefined ? undefined : edit(fields.edit, `${what}.edit`, mode);
  const known =
    1 +
    +(title !== undefined) +
    +(locations !== undefined) +
    +(changed !== undefined) +
    +(command !== undefined);
  return (
    (locations === fields.locations && command === fields.command && changed === fields.edit
      ? keptAs(mode, fields, known)
      : undefined) ??
    Object.freeze({
      kind,
      ...(title !== undefined && { title }),
      ...(locations !== undefined && { locations }),
      ...(changed !== undefined && { edit: changed }),
      ...(command !== undefined && { command }),
    })
  );
}

function decider(value: unknown, mode: Mode): PermissionDecider {
  const what = 'outcome.decidedBy';
  const fields = record(value, what);
  switch (fields.kind) {
    case 'person': {
      const rule = optionalText(fields, 'rule', what);
      const choice = oneOf<PermissionChoice>(fields.choice, PERMISSION_CHOICES, `${what}.choice`);
      return (
        keptAs(mode, fields, rule === undefined ? 2 : 3) ??
        Object.freeze({ kind: 'person', choice, ...(rule !== undefined && { rule }) })
      );
    }
    case 'rule': {
      const rule = text(fields, 'rule', what);
      const source = text(fields, 'source', what);
      return keptAs(mode, fields, 3) ?? Object.freeze({ kind: 'rule', rule, source });
    }
    case 'policy': {
      const reason = text(fields, 'reason', what);
      return keptAs(mode, fields, 2) ?? Object.freeze({ kind: 'policy', reason });
    }
    case 'unanswered': {
      const { code } = fields;
      if (!isUserInteractionErrorCode(code)) fail(`${what}.code must be a user interaction code`);
      const message = text(fields, 'message', what);
      return keptAs(mode, fields, 3) ?? Object.freeze({ kind: 'unanswered', code, message });
    }
    default:
      return fail(`${what}.kind must be person, rule, policy or unanswered`);
  }
}

function outcome(value: unknown, mode: Mode): PermissionOutcome {
  const fields = record(value, 'outcome');
  const { allowed } = fields;
  if (typeof allowed !== 'boolean') fail('outcome.allowed must be true or false');
  const decidedBy = decider(fields.decidedBy, mode);
  if (allowed && decidedBy.kind === 'unanswered')
    fail('an unanswered approval cannot allow a call');
  if (
    decidedBy.kind === 'person' &&
    allowed !== (decidedBy.choice === 'allow_once' || decidedBy.choice === 'allow_always')
  ) {
    fail('outcome.allowed does not match the person’s choice');
  }
  return (
    (decidedBy === fields.decidedBy ? keptAs<PermissionOutcome>(mode, fields, 2) : undefined) ??
    (Object.freeze({ allowed, decidedBy }) as PermissionOutcome)
  );
}

function toolResult(value: unknown, mode: Mode): ToolResult {
  const fields = record(value, 'result');
  const output = text(fields, 'output', 'result');
  if (fields.ok === true) {
    const given = fields.answer === undefined ? undefined : answer(fields.answer, mode);
    const answers = fields.answers === undefined ? undefined : itemAnswers(fields.answers, mode);
    const more = fields.details === undefined ? undefined : details(fields.details, mode);
    const known = 2 + +(given !== undefined) + +(answers !== undefined) + +(more !== undefined);
    return (
      (given === fields.answer && answers === fields.answers && more === fields.details
        ? keptAs(mode, fields, known)
        : undefined) ??
      Object.freeze({
        ok: true,
        output,
        ...(given !== undefined && { answer: given }),
        ...(answers !== undefined && { answers }),
        ...(more !== undefined && { details: more }),
      })
    );
  }
  if (fields.ok !== false) fail('result.ok must be true or false');
  const error = toolError(fields.error, 'result.error', mode);
  return (
    (error === fields.error ? keptAs(mode, fields, 3) : undefined) ??
    Object.freeze({ ok: false, output, error })
  );
}

const REASONS: readonly TurnEndReason[] = ['finished', 'cancelled', 'step-limit', 'error'];

function turnEnd(fields: Fields, mode: Mode): ConversationEntry {
  const reason = fields.reason as TurnEndReason;
  if (!REASONS.includes(reason)) fail(`reason must be one of ${REASONS.join(', ')}`);
  if (reason === 'step-limit' || reason === 'error') {
    const error = toolError(fields.error, 'error', mode);
    return (
      (error === fields.error ? keptAs(mode, fields, 3) : undefined) ??
      Object.freeze({ type: 'turn-end', reason, error })
    );
  }
  const { interrupted } = fields;
  if (interrupted !== undefined && typeof interrupted !== 'boolean') {
    fail('interrupted must be true or false');
  }
  if (fields.error !== undefined) fail(`a turn that ended ${reason} has no error`);
  // `interrupted: false` says nothing: it is left out (the object always copied).
  return (
    (interrupted === false ? undefined : keptAs(mode, fields, interrupted === undefined ? 2 : 3)) ??
    Object.freeze({ type: 'turn-end', reason, ...(interrupted === true && { interrupted }) })
  );
}

function entryOf(fields: Fields, mode: Mode): ConversationEntry {
  switch (fields.type) {
    case 'prompt': {
      const promptText = text(fields, 'text', 'prompt');
      return keptAs(mode, fields, 2) ?? Object.freeze({ type: 'prompt', text: promptText });
    }
    case 'assistant': {
      const { toolCalls } = fields;
      if (toolCalls !== undefined && !Array.isArray(toolCalls)) fail('toolCalls must be an array');
      const calls =
        toolCalls === undefined
          ? undefined
          : listOf(toolCalls, mode, (call, index) => toolCall(call, `toolCalls[${index}]`, mode));
      const assistantText = text(fields, 'text', 'assistant');
      const thought =
        fields.reasoning === undefined ? undefined : reasoning(fields.reasoning, mode);
      // An empty list of calls is none: it is left out (the object copied).
      const known = 2 + +(calls !== undefined && calls.length > 0) + +(thought !== undefined);
      return (
        (calls === toolCalls && thought === fields.reasoning
          ? keptAs(mode, fields, known)
          : undefined) ??
        Object.freeze({
          type: 'assistant',
          text: assistantText,
          ...(calls !== undefined && calls.length > 0 && { toolCalls: calls }),
          ...(thought !== undefined && { reasoning: thought }),
        })
      );
    }
    case 'approval': {
      const toolCallId = text(fields, 'toolCallId', 'approval');
      const described = description(fields.description, mode);
      const decided = outcome(fields.outcome, mode);
      return (
        (described === fields.description && decided === fields.outcome
          ? keptAs(mode, fields, 4)
          : undefined) ??
        Object.freeze({
          type: 'approval',
          toolCallId,
          description: described,
          outcome: decided,
        })
      );
    }
    case 'posed': {
      const toolCallId = text(fields, 'toolCallId', 'posed');
      const kind = oneOf(fields.kind, ['question', 'approval'] as const, 'kind');
      const state = optionalText(fields, 'state', 'posed');
      if (state === undefined) {
        return keptAs(mode, fields, 3) ?? Object.freeze({ type: 'posed', toolCallId, kind });
      }
      if (kind !== 'question') fail('posed.state is kept for a question only');
      if (state.length > POSED_STATE_LIMIT)
        fail(`posed.state is over ${POSED_STATE_LIMIT} characters`);
      return keptAs(mode, fields, 4) ?? Object.freeze({ type: 'posed', toolCallId, kind, state });
    }
    case 'tool-result': {
      const toolCallId = text(fields, 'toolCallId', 'tool-result');
      const result = toolResult(fields.result, mode);
      return (
        (result === fields.result ? keptAs(mode, fields, 3) : undefined) ??
        Object.freeze({ type: 'tool-result', toolCallId, result })
      );
    }
    case 'turn-end':
      return turnEnd(fields, mode);
    default:
      return fail(`type ${JSON.stringify(fields.type)} is not a conversation entry`);
  }
}

function read(
  value: unknown,
  mode: Mode,
): { readonly entry: ConversationEntry } | { readonly problem: string } {
  try {
    return { entry: entryOf(record(value, 'the entry'), mode) };
  } catch (error) {
    if (error instanceof Problem) return { problem: error.text };
    throw error;
  }
}

/**
 * Reads a value that should be a `ConversationEntry` (from a caller): a fresh, frozen copy of
 * its known fields, each read once, or what is wrong with it. Other fields are left out.
 */
export function readConversationEntry(
  value: unknown,
): { readonly entry: ConversationEntry } | { readonly problem: string } {
  return read(value, 'copy');
}

/**
 * `readConversationEntry` for a value fresh from `JSON.parse` that nobody else holds (a line of
 * a file): checked in place and returned itself, equal to the copy `readConversationEntry`
 * makes (but not frozen). Only an object holding a field to leave out is copied.
 */
export function readParsedConversationEntry(
  value: unknown,
): { readonly entry: ConversationEntry } | { readonly problem: string } {
  return read(value, 'keep');
}
