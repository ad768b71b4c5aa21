import type {
  AskUserQuestionAnswer,
  AskUserQuestionRequest,
  UserInteraction,
  UserInteractionCapabilities,
} from 'dsh-user-interaction';
import type { ObjectType } from '../session/shape/object-shape.js';
import type { ShapeType } from '../session/shape/shape.js';
import type {
  TOOL_CALL_DESCRIPTION_FIELDS,
  TOOL_CALL_LOCATION,
  TOOL_RESULT,
  TOOL_RESULT_DETAILS_FIELDS,
} from '../session/tool-shapes.js';
import type { ToolCallAgent } from './tool-call-agent.js';

/**
 * The question service an agent asks through: `createUserInteraction()` fits. Without `askAll`,
 * several questions at once fail with `UNSUPPORTED`.
 */
export type AgentInteraction = Pick<UserInteraction, 'ask' | 'capabilities'> &
  Partial<Pick<UserInteraction, 'askAll' | 'requestPermission'>>;

/** A place a tool call touches: an absolute path, with a line where known (editors follow along). */
export type ToolCallLocation = ShapeType<typeof TOOL_CALL_LOCATION>;

/**
 * What a tool call will do, said before it runs: what an approval shows, what the permission
 * policy decides on, and what UIs show of the call (an editor's icon, the files it follows, a
 * diff). Declared once, as the shape `TOOL_CALL_DESCRIPTION`, which a session's reader checks.
 */
export type ToolCallDescription = ObjectType<typeof TOOL_CALL_DESCRIPTION_FIELDS>;

/** What `describe` receives. */
export interface ToolDescribeContext {
  /** Aborts when the turn is cancelled. */
  readonly signal: AbortSignal;
  /** The id of this tool call. */
  readonly toolCallId: string;
}

/**
 * What a tool returns: model-facing text, and for a failure the error it carries. The
 * `ask_user_question` tool also returns the person's `answer` (with the chosen option), or
 * `answers` for several questions asked at once. Declared once, as the shape `TOOL_RESULT`.
 */
export type ToolResult = ShapeType<typeof TOOL_RESULT>;

/** What a UI may show of a tool result besides its output: a diff, a command's ending. */
export type ToolResultDetails = ObjectType<typeof TOOL_RESULT_DETAILS_FIELDS>;

/** A question as a tool asks it; the loop fills in `agent` and `signal`. */
export type ToolQuestion = Omit<AskUserQuestionRequest, 'agent' | 'signal'>;

/** What a tool receives with each call. */
export interface ToolContext {
  /** The calling agent for this call (`{ id, toolCallId }`); pass it as `agent` when asking. */
  readonly agent: ToolCallAgent;
  /** Aborts when the turn is cancelled. */
  readonly signal: AbortSignal;
  /** The id of this tool call. */
  readonly toolCallId: string;
  /** The agent's question service. */
  readonly interaction: AgentInteraction;
  /** Asks the person on behalf of this call, with its agent, signal and time limit filled in. */
  ask(question: ToolQuestion): Promise<AskUserQuestionAnswer>;
  /** What `describe` said of this call, as it was approved; `undefined` for a tool without `describe`. */
  readonly description?: ToolCallDescription;
  /**
   * Stores that this call is about to put a question to the person in the middle of its work,
   * with `state`: what it needs to go on if the program stops while the question waits (an MCP
   * server's `requestState`; never an answer the person typed). Resolves once it is durable
   * (the session file synced): show the question then. A turn the program stopped in then goes
   * on (`ChatAgent.resume`): the call runs again with `pending` set, its approval kept.
   * Rejects when the state cannot be stored (longer than 1,000,000 characters, or the store
   * failed).
   */
  recordPending?(state: string): Promise<void>;
  /** The `state` this call stored with `recordPending` before the program stopped, when it goes on. */
  readonly pending?: string;
}

/** What a tool's description may depend on, read at each model request. */
export interface ToolDescriptionContext {
  /** What the active UI can show; `undefined` when no UI is registered. */
  readonly capabilities: UserInteractionCapabilities | undefined;
}

/** A tool the model may call. */
export interface AgentTool {
  /** The name the model calls it by: letters, digits, `_` and `-`, at most 64 characters. */
  readonly name: string;
  /** What the tool does, for the model; a function is called at every model request. */
  readonly description: string | ((context: ToolDescriptionContext) => string);
  /** JSON Schema of the arguments object. */
  readonly parameters: object;
  /** A one-line title for UIs, from the parsed arguments; defaults to the tool's name. */
  title?(args: unknown): string;
  /**
   * Says what a call will do before it runs (reading what it needs, such as the file an edit
   * changes). A tool that has it is gated: the agent's permission policy decides, or the person
   * approves, before `execute` runs, and `execute` gets the approved description in its
   * context. A thrown error fails the call (as `execute` would) before anything is asked.
   */
  describe?(
    args: unknown,
    context: ToolDescribeContext,
  ): ToolCallDescription | Promise<ToolCallDescription>;
  /**
   * Runs the call with the parsed arguments. A thrown error becomes an error result for the
   * model (a `HarnessError` keeps its name, code and message; anything else is generic).
   */
  execute(args: unknown, context: ToolContext): Promise<ToolResult>;
}
