import { invalidAnswerError, invalidRequestError } from '../errors/ask-errors.js';
import type { UserInteractionError } from '../errors/user-interaction-error.js';
import {
  offeredChoices,
  PERMISSION_KINDS,
  type PermissionChoice,
  type PermissionCommand,
  type PermissionEdit,
  type PermissionOutcome,
  type PermissionRequest,
  type PermissionRuleScope,
  type PermissionSandbox,
  SANDBOX_CONFINEMENTS,
} from '../permission-request.js';
import { hasLoneSurrogate } from './is-blank-text.js';
import { readEntry, readKnownFields, readLength } from './read-known-fields.js';
import { isArray, textProblem, typeOf } from './request-field-checks.js';
import { unreadableAnswer } from './validate-answer.js';
import {
  checkCallerFields,
  type Mutable,
  readFieldsOnce,
  withCallerFields,
} from './validate-request.js';

/** Upper bounds of a permission request, in UTF-16 code units. */
export const PERMISSION_LIMITS = {
  /** Characters in `title` and in a rule's description. */
  titleLength: 1_000,
  /** Characters in `toolCallId`. */
  toolCallIdLength: 200,
  /** Paths in `paths`. */
  paths: 100,
  /** Characters in one path. */
  pathLength: 4_096,
  /** Characters in `command.command`. */
  commandLength: 100_000,
  /** Characters in each of `edit.oldText` and `edit.newText`. */
  editTextLength: 4_000_000,
  /** Characters in a rule. */
  ruleLength: 2_000,
} as const;

const REQUEST_FIELD_NAMES = [
  'signal',
  'toolCallId',
  'title',
  'kind',
  'paths',
  'edit',
  'command',
  'allowAlways',
  'rejectAlways',
  'agent',
  'timeoutMs',
] as const satisfies readonly (keyof PermissionRequest)[];

const REQUEST_KEYS: ReadonlySet<string> = new Set(REQUEST_FIELD_NAMES);
const EDIT_KEYS: ReadonlySet<string> = new Set(['path', 'oldText', 'newText']);
const COMMAND_KEYS: ReadonlySet<string> = new Set(['command', 'cwd', 'sandbox']);
const SANDBOX_KEYS: ReadonlySet<string> = new Set(['confinement', 'note']);
const SCOPE_KEYS: ReadonlySet<string> = new Set(['rule', 'description']);
const KINDS: ReadonlySet<string> = new Set(PERMISSION_KINDS);

/** A permission request's fields, each read exactly once; a failure is kept in `problem`. */
export type PermissionRequestFields = { readonly [K in keyof PermissionRequest]-?: unknown } & {
  readonly problem: UserInteractionError | undefined;
};

/** Reads every field of a permission request once. Never throws. */
export function readPermissionFields(request: unknown): PermissionRequestFields {
  return readFieldsOnce(
    request,
    REQUEST_FIELD_NAMES,
    REQUEST_KEYS,
    'a permission request',
  ) as PermissionRequestFields;
}

function text(value: unknown, field: string, maxLength: number, required = true): void {
  const problem = textProblem(value, maxLength, required);
  if (problem !== undefined) throw invalidRequestError(field, problem);
}

/** A path: absolute (POSIX or a Windows drive), well formed, with no control characters. */
function checkPath(value: unknown, field: string): string {
  text(value, field, PERMISSION_LIMITS.pathLength);
  const path = value as string;
  if (!(path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\'))) {
    throw invalidRequestError(field, 'must be an absolute path');
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a path must not carry them.
  if (/[\u0000-\u001f\u007f]/.test(path)) {
    throw invalidRequestError(field, 'must not contain control characters');
  }
  return path;
}

function fieldsOf(
  value: unknown,
  keys: ReadonlySet<string>,
  noun: string,
  field: string,
): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || isArray(value)) {
    throw invalidRequestError(field, `must be an object, not ${typeOf(value)}`);
  }
  return readKnownFields(value, [...keys], keys, noun, (key) =>
    key === undefined ? field : `${field}.${key}`,
  );
}

function checkPaths(value: unknown): readonly string[] | undefined {
  if (value === undefined) return undefined;
  const length = readLength(value, 'paths');
  if (length > PERMISSION_LIMITS.paths) {
    throw invalidRequestError('paths', `must list at most ${PERMISSION_LIMITS.paths} paths`);
  }
  const paths: string[] = [];
  for (let index = 0; index < length; index++) {
    paths.push(checkPath(readEntry(value, index, `paths[${index}]`), `paths[${index}]`));
  }
  return Object.freeze(paths);
}

/** Text that may be empty (a file's content), within a length, well formed. */
function content(value: unknown, field: string): string {
  if (typeof value !== 'string') {
    throw invalidRequestError(field, `must be a string, not ${typeOf(value)}`);
  }
  if (value.length > PERMISSION_LIMITS.editTextLength) {
    throw invalidRequestError(
      field,
      `must be at most ${PERMISSION_LIMITS.editTextLength} characters (it has ${value.length})`,
    );
  }
  if (hasLoneSurrogate(value)) {
    throw invalidRequestError(field, 'must be well-formed text (it has a lone surrogate)');
  }
  return value;
}

function checkEdit(value: unknown): PermissionEdit | undefined {
  if (value === undefined) return undefined;
  const fields = fieldsOf(value, EDIT_KEYS, 'an edit', 'edit');
  const path = checkPath(fields.path, 'edit.path');
  const oldText = fields.oldText === null ? null : content(fields.oldText, 'edit.oldText');
  const newText = content(fields.newText, 'edit.newText');
  return Object.freeze({ path, oldText, newText });
}

function checkCommand(value: unknown): PermissionCommand | undefined {
  if (value === undefined) return undefined;
  const fields = fieldsOf(value, COMMAND_KEYS, 'a command', 'command');
  text(fields.command, 'command.command', PERMISSION_LIMITS.commandLength);
  const cwd = checkPath(fields.cwd, 'command.cwd');
  const sandbox = checkSandbox(fields.sandbox);
  return Object.freeze({
    command: fields.command as string,
    cwd,
    ...(sandbox !== undefined && { sandbox }),
  });
}

function checkSandbox(value: unknown): PermissionSandbox | undefined {
  if (value === undefined) return undefined;
  const fields = fieldsOf(value, SANDBOX_KEYS, 'a sandbox', 'command.sandbox');
  const { confinement } = fields;
  if (
    typeof confinement !== 'string' ||
    !(SANDBOX_CONFINEMENTS as readonly string[]).includes(confinement)
  ) {
    throw invalidRequestError(
      'command.sandbox.confinement',
      `must be one of ${SANDBOX_CONFINEMENTS.join(', ')}`,
    );
  }
  text(fields.note, 'command.sandbox.note', PERMISSION_LIMITS.titleLength);
  return Object.freeze({
    confinement: confinement as PermissionSandbox['confinement'],
    note: fields.note as string,
  });
}

function checkScope(value: unknown, field: string): PermissionRuleScope | undefined {
  if (value === undefined) return undefined;
  const fields = fieldsOf(value, SCOPE_KEYS, 'a rule scope', field);
  text(fields.rule, `${field}.rule`, PERMISSION_LIMITS.ruleLength);
  text(fields.description, `${field}.description`, PERMISSION_LIMITS.titleLength);
  return Object.freeze({ rule: fields.rule as string, description: fields.description as string });
}

/**
 * Checks fields read by `readPermissionFields` and returns the frozen request built from them.
 * Throws `INVALID_REQUEST` naming the first offending field.
 */
export function checkPermissionFields(fields: PermissionRequestFields): PermissionRequest {
  if (fields.problem !== undefined) throw fields.problem;
  text(fields.toolCallId, 'toolCallId', PERMISSION_LIMITS.toolCallIdLength);
  text(fields.title, 'title', PERMISSION_LIMITS.titleLength);
  if (typeof fields.kind !== 'string' || !KINDS.has(fields.kind)) {
    throw invalidRequestError('kind', `must be one of ${PERMISSION_KINDS.join(', ')}`);
  }
  const request: Mutable<PermissionRequest> = {
    toolCallId: fields.toolCallId as string,
    title: fields.title as string,
    kind: fields.kind as PermissionRequest['kind'],
  };
  const paths = checkPaths(fields.paths);
  if (paths !== undefined) request.paths = paths;
  const edit = checkEdit(fields.edit);
  if (edit !== undefined) request.edit = edit;
  const command = checkCommand(fields.command);
  if (command !== undefined) request.command = command;
  const allowAlways = checkScope(fields.allowAlways, 'allowAlways');
  if (allowAlways !== undefined) request.allowAlways = allowAlways;
  const rejectAlways = checkScope(fields.rejectAlways, 'rejectAlways');
  if (rejectAlways !== undefined) request.rejectAlways = rejectAlways;
  return Object.freeze(withCallerFields(request, checkCallerFields(fields)));
}

/**
 * Checks a permission request and returns a frozen snapshot of it (every field read once).
 * Throws `INVALID_REQUEST` naming the first offending field; never any other error.
 */
export function validatePermissionRequest(request: unknown): PermissionRequest {
  return checkPermissionFields(readPermissionFields(request));
}

/**
 * A UI's answer to an approval, checked against what the request offered, as the outcome it
 * means. Throws `INVALID_ANSWER` for a choice that was not offered (an "always" the request
 * did not name a rule for), `ASK_FAILED` when the answer cannot be read.
 */
export function validatePermissionAnswer(
  request: PermissionRequest,
  answer: unknown,
): PermissionOutcome {
  let choice: unknown;
  try {
    choice = (answer as { choice?: unknown } | null | undefined)?.choice;
  } catch (error) {
    throw unreadableAnswer(error);
  }
  if (typeof choice !== 'string' || !offeredChoices(request).includes(choice as PermissionChoice)) {
    throw invalidAnswerError(`the choice ${JSON.stringify(String(choice))} was not offered`);
  }
  switch (choice as PermissionChoice) {
    case 'allow_once':
      return Object.freeze({
        allowed: true,
        decidedBy: Object.freeze({ kind: 'person', choice: 'allow_once' }),
      });
    case 'allow_always':
      return Object.freeze({
        allowed: true,
        decidedBy: Object.freeze({
          kind: 'person',
          choice: 'allow_always',
          rule: (request.allowAlways as PermissionRuleScope).rule,
        }),
      });
    case 'reject_once':
      return Object.freeze({
        allowed: false,
        decidedBy: Object.freeze({ kind: 'person', choice: 'reject_once' }),
      });
    case 'reject_always':
      return Object.freeze({
        allowed: false,
        decidedBy: Object.freeze({
          kind: 'person',
          choice: 'reject_always',
          rule: (request.rejectAlways as PermissionRuleScope).rule,
        }),
      });
  }
}
