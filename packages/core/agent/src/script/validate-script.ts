import { ModelError } from '../models/model-error.js';
import type { Script } from './script.js';
import { quotedIds, splitQuotedId } from './script-template.js';

const ROOT_KEYS = new Set(['$schema', 'description', 'steps', 'end']);
const STEP_KEYS = new Set(['text', 'toolCalls']);
const CALL_KEYS = new Set(['id', 'name', 'arguments']);
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const CALL_ID = /^[A-Za-z0-9_.-]{1,64}$/;

type Fields = Record<string, unknown>;

function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The ids of the questions a call asks at once (`arguments.questions[].id`), if it asks several. */
function questionIds(args: unknown): ReadonlySet<string> | undefined {
  let value = args;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  const questions = isRecord(value) ? value.questions : undefined;
  if (!Array.isArray(questions)) return undefined;
  const ids = questions.map((item: unknown) => (isRecord(item) ? item.id : undefined));
  return new Set(ids.filter((id): id is string => typeof id === 'string'));
}

/** Checks a parsed script and returns it typed; throws `SCRIPT_INVALID` naming the field. */
export function validateScript(value: unknown, source = 'script'): Script {
  const fail = (field: string, problem: string): never => {
    throw new ModelError(`Invalid script ${source}: ${field} ${problem}.`, 'SCRIPT_INVALID', {
      field,
    });
  };
  const checkKeys = (fields: Fields, allowed: Set<string>, prefix: string): void => {
    for (const key of Object.keys(fields)) {
      if (!allowed.has(key)) {
        fail(`${prefix}${key}`, `is not a known field (allowed: ${[...allowed].join(', ')})`);
      }
    }
  };
  /** Call ids so far, each with the ids of the questions it asks at once, if any. */
  type Known = ReadonlyMap<string, ReadonlySet<string> | undefined>;
  const checkQuotes = (text: string, field: string, known: Known): void => {
    for (const id of quotedIds(text)) {
      const { callId, questionId } = splitQuotedId(id, (candidate) => known.has(candidate));
      if (!known.has(callId)) {
        const ids = known.size === 0 ? 'none' : [...known.keys()].join(', ');
        fail(
          field,
          `quotes {{answer:${id}}}, but no tool call of an earlier step has that id (ids so far: ${ids})`,
        );
      }
      const asked = known.get(callId);
      if (questionId !== undefined && asked?.has(questionId) !== true) {
        const ids = asked === undefined || asked.size === 0 ? 'none' : [...asked].join(', ');
        fail(
          field,
          `quotes {{answer:${id}}}, but the tool call ${callId} asks no question with the id ${questionId} (its question ids: ${ids})`,
        );
      }
    }
  };
  const checkArgumentQuotes = (args: unknown, field: string, known: Known): void => {
    if (typeof args === 'string') checkQuotes(args, field, known);
    else if (Array.isArray(args)) {
      for (const [index, item] of args.entries()) {
        checkArgumentQuotes(item, `${field}[${index}]`, known);
      }
    } else if (isRecord(args)) {
      for (const [key, item] of Object.entries(args)) {
        checkArgumentQuotes(item, `${field}.${key}`, known);
      }
    }
  };

  if (!isRecord(value)) return fail('the script', 'must be a JSON object with a `steps` array');
  checkKeys(value, ROOT_KEYS, '');
  if (value.description !== undefined && typeof value.description !== 'string') {
    fail('description', 'must be a string');
  }
  if (value.end !== undefined && (typeof value.end !== 'string' || value.end.trim() === '')) {
    fail('end', 'must be a non-blank string');
  }
  const steps = value.steps;
  if (!Array.isArray(steps) || steps.length === 0) {
    return fail('steps', 'must be a non-empty array of steps');
  }
  const known = new Map<string, ReadonlySet<string> | undefined>();
  // Indexed loops, not `forEach`, which skips a hole: an array made in code may have one, which
  // is no step or call (and the scripted model reads every index up to `length`).
  for (let stepIndex = 0; stepIndex < steps.length; stepIndex++) {
    const step: unknown = steps[stepIndex];
    const at = `steps[${stepIndex}]`;
    if (!isRecord(step)) fail(at, 'must be an object with `text` and/or `toolCalls`');
    const fields = step as Fields;
    checkKeys(fields, STEP_KEYS, `${at}.`);
    if (fields.text !== undefined && typeof fields.text !== 'string') {
      fail(`${at}.text`, 'must be a string');
    }
    if (fields.toolCalls !== undefined && !Array.isArray(fields.toolCalls)) {
      fail(`${at}.toolCalls`, 'must be an array of tool calls');
    }
    const text = (fields.text as string | undefined) ?? '';
    const calls = (fields.toolCalls as unknown[] | undefined) ?? [];
    if (text === '' && calls.length === 0) fail(at, 'must have a non-empty `text` or `toolCalls`');
    checkQuotes(text, `${at}.text`, known);
    const ids: [string, ReadonlySet<string> | undefined][] = [];
    for (let callIndex = 0; callIndex < calls.length; callIndex++) {
      const call = calls[callIndex];
      const callAt = `${at}.toolCalls[${callIndex}]`;
      if (!isRecord(call)) fail(callAt, 'must be an object with a `name`');
      const callFields = call as Fields;
      checkKeys(callFields, CALL_KEYS, `${callAt}.`);
      if (typeof callFields.name !== 'string' || !TOOL_NAME.test(callFields.name)) {
        fail(`${callAt}.name`, 'must be a tool name (1 to 64 letters, digits, _ or -)');
      }
      const id = callFields.id ?? `call_${stepIndex + 1}_${callIndex + 1}`;
      if (typeof id !== 'string' || !CALL_ID.test(id)) {
        fail(`${callAt}.id`, 'must be 1 to 64 letters, digits, _, . or -');
      }
      if (known.has(id as string) || ids.some(([seen]) => seen === id)) {
        fail(`${callAt}.id`, `repeats the id "${id}"; ids must be unique in the script`);
      }
      const args = callFields.arguments;
      if (args !== undefined && typeof args !== 'string' && !isRecord(args)) {
        fail(`${callAt}.arguments`, 'must be an object (or JSON text)');
      }
      checkArgumentQuotes(args, `${callAt}.arguments`, known);
      ids.push([id as string, questionIds(args)]);
    }
    for (const [id, asked] of ids) known.set(id, asked);
  }
  return value as unknown as Script;
}
