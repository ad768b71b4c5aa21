import type {
  AskUserQuestionAnswer,
  AskUserQuestionRequest,
  AskUserQuestionsAnswer,
  ToolError,
  UserInteraction,
  UserInteractionCapabilities,
} from 'dsh-user-interaction';
import type { ToolCallAgent } from './tool-call-agent.js';

/**
 * The question service an agent asks through: `createUserInteraction()` fits. Without `askAll`,
 * several questions at once fail with `UNSUPPORTED`.
 */
export type AgentInteraction = Pick<UserInteraction, 'ask' | 'capabilities'> &
  Partial<Pick<UserInteraction, 'askAll'>>;

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
    }
  | { readonly ok: false; readonly output: string; readonly error: ToolError };

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
   * Runs the call with the parsed arguments. A thrown error becomes an error result for the
   * model (a `HarnessError` keeps its name, code and message; anything else is generic).
   */
  execute(args: unknown, context: ToolContext): Promise<ToolResult>;
}
