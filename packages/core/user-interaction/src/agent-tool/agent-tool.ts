import type {
  AskUserQuestionAnswer,
  AskUserQuestionRequest,
  AskUserQuestionsAnswer,
  PermissionCommand,
  PermissionEdit,
  PermissionKind,
  ToolError,
  UserInteraction,
  UserInteractionCapabilities,
} from '../index.js';
import type { ToolCallAgent } from './tool-call-agent.js';

/**
 * The question service an agent asks through: `createUserInteraction()` fits. Without `askAll`,
 * several questions at once fail with `UNSUPPORTED`.
 */
export type AgentInteraction = Pick<UserInteraction, 'ask' | 'capabilities'> &
  Partial<Pick<UserInteraction, 'askAll' | 'requestPermission'>>;

/** A place a tool call touches: an absolute path, with a line where known (editors follow along). */
export interface ToolCallLocation {
  readonly path: string;
  readonly line?: number;
}

/**
 * What a tool call will do, said before it runs: what an approval shows, what the permission
 * policy decides on, and what UIs show of the call (an editor's icon, the files it follows, a diff).
 */
export interface ToolCallDescription {
  /** What kind of call it is; `read` and `search` only for calls that change nothing. */
  readonly kind: PermissionKind;
  /** One line for the person, such as "Edit src/app.ts" (default: the tool's `title`). */
  readonly title?: string;
  /** The absolute paths the call touches, with a line where known. */
  readonly locations?: readonly ToolCallLocation[];
  /** For an edit or a write: the change it makes (shown as a diff). */
  readonly edit?: PermissionEdit;
  /** For a command: what runs, and in which folder. */
  readonly command?: PermissionCommand;
}

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
 * `answers` for several questions asked at once.
 */
export type ToolResult =
  | {
      readonly ok: true;
      readonly output: string;
      readonly answer?: AskUserQuestionAnswer;
      readonly answers?: AskUserQuestionsAnswer;
      readonly details?: ToolResultDetails;
    }
  | { readonly ok: false; readonly output: string; readonly error: ToolError };

/** What a UI may show of a tool result besides its output: a diff, a command's ending. */
export interface ToolResultDetails {
  /** The change an edit or a write made. */
  readonly edit?: PermissionEdit;
  /** How a command ended: its exit status, or the signal that ended it. */
  readonly exit?: { readonly code: number | null; readonly signal: string | null };
  /** What an OS sandbox blocked of a command, for the person: "the network". */
  readonly blocked?: string;
}

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
