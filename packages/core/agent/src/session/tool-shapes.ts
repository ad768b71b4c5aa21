// What a tool call says of itself and what it returns, as a session's reader checks and copies
// them. The types are the contract's (`dsh-user-interaction/agent-tool`, so that a package of
// tools needs no agent): each shape here is tied to its type, so a field added to one and not the
// other does not compile.
import {
  type AskUserQuestionAnswer,
  type AskUserQuestionItemAnswer,
  type AskUserQuestionOption,
  type AskUserQuestionsAnswer,
  PERMISSION_KINDS,
  type PermissionCommand,
  type PermissionEdit,
  type PermissionSandbox,
  type SandboxConfinement,
  type ToolError,
} from 'dsh-user-interaction';
import type {
  ToolCallDescription,
  ToolCallLocation,
  ToolResult,
  ToolResultDetails,
} from 'dsh-user-interaction/agent-tool';
import { list, union } from './shape/list-and-union.js';
import { object, objectOf, optional } from './shape/object-shape.js';
import {
  boolean,
  literal,
  nullable,
  oneOf,
  type ShapeType,
  text,
  wholeNumber,
} from './shape/shape.js';

/** Every `SandboxConfinement`: the type below fails to compile when the contract adds one. */
const SANDBOX_CONFINEMENTS = ['sandboxed', 'network', 'none'] as const;
const everyConfinement: Exclude<
  SandboxConfinement,
  (typeof SANDBOX_CONFINEMENTS)[number]
> extends never
  ? true
  : never = true;
void everyConfinement;

/** An error as the model sees it (the contract's `ToolError`). */
export const TOOL_ERROR = objectOf<ToolError>()({ name: text, code: text, message: text });

/** The change an edit or a write makes (the contract's `PermissionEdit`). */
export const EDIT = objectOf<PermissionEdit>()({
  path: text,
  oldText: nullable(text),
  newText: text,
});

const SANDBOX = objectOf<PermissionSandbox>()({
  confinement: oneOf(SANDBOX_CONFINEMENTS),
  note: text,
});

const COMMAND = objectOf<PermissionCommand>()({
  command: text,
  cwd: text,
  sandbox: optional(SANDBOX),
});

/** A place a tool call touches: an absolute path, with a line where known (editors follow along). */
export const TOOL_CALL_LOCATION = objectOf<ToolCallLocation>()({
  path: text,
  line: optional(wholeNumber(0)),
});

/**
 * What a tool call will do, said before it runs: what an approval shows, what the permission
 * policy decides on, and what UIs show of the call (an editor's icon, the files it follows, a diff).
 */
export const TOOL_CALL_DESCRIPTION_FIELDS = {
  /** What kind of call it is; `read` and `search` only for calls that change nothing. */
  kind: oneOf(PERMISSION_KINDS),
  /** One line for the person, such as "Edit src/app.ts" (default: the tool's `title`). */
  title: optional(text),
  /** The absolute paths the call touches, with a line where known. */
  locations: optional(list(TOOL_CALL_LOCATION)),
  /** For an edit or a write: the change it makes (shown as a diff). */
  edit: optional(EDIT),
  /** For a command: what runs, and in which folder. */
  command: optional(COMMAND),
};

/** `TOOL_CALL_DESCRIPTION_FIELDS` as an object. */
export const TOOL_CALL_DESCRIPTION = objectOf<ToolCallDescription>()(TOOL_CALL_DESCRIPTION_FIELDS);

const OPTION = objectOf<AskUserQuestionOption>()({
  label: text,
  value: optional(text),
  description: optional(text),
  recommended: optional(boolean),
});

const ANSWER = objectOf<AskUserQuestionAnswer>()({ answer: text, option: optional(OPTION) });

const ITEM_ANSWER = objectOf<AskUserQuestionItemAnswer>()({
  id: text,
  answers: list(text),
  options: list(OPTION),
  custom: optional(text),
});

const ANSWERS = objectOf<AskUserQuestionsAnswer>()({ answers: list(ITEM_ANSWER) });

/** What a UI may show of a tool result besides its output: a diff, a command's ending. */
export const TOOL_RESULT_DETAILS_FIELDS = {
  /** The change an edit or a write made. */
  edit: optional(EDIT),
  /** How a command ended: its exit status, or the signal that ended it. */
  exit: optional(object({ code: nullable(wholeNumber()), signal: nullable(text) })),
  /** What an OS sandbox blocked of a command, for the person: "the network". */
  blocked: optional(text),
};

/** `TOOL_RESULT_DETAILS_FIELDS` as an object. */
export const TOOL_RESULT_DETAILS = objectOf<ToolResultDetails>()(TOOL_RESULT_DETAILS_FIELDS);

/**
 * What a tool returns: model-facing text, and for a failure the error it carries. The
 * `ask_user_question` tool also returns the person's `answer` (with the chosen option), or
 * `answers` for several questions asked at once.
 */
export const TOOL_RESULT = union('ok', [
  object({
    ok: literal(true),
    output: text,
    answer: optional(ANSWER),
    answers: optional(ANSWERS),
    details: optional(TOOL_RESULT_DETAILS),
  }),
  object({ ok: literal(false), output: text, error: TOOL_ERROR }),
]);

/** `true` only when the two types hold the same values. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
/** `TOOL_RESULT` reads exactly the contract's `ToolResult`: a field added to one alone fails here. */
const resultIsTheContracts: Same<ShapeType<typeof TOOL_RESULT>, ToolResult> = true;
void resultIsTheContracts;
