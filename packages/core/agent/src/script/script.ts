/** A tool call a script step makes. */
export interface ScriptToolCall {
  /** The call's id; later steps quote its answer with `{{answer:<id>}}`. Default: `call_<step>_<n>`. */
  readonly id?: string;
  /** The tool to call, such as `ask_user_question`. */
  readonly name: string;
  /** The arguments: an object (its strings may quote answers), or raw JSON text. Default `{}`. */
  readonly arguments?: Readonly<Record<string, unknown>> | string;
}

/** One assistant step: text, tool calls, or both. */
export interface ScriptStep {
  /** Text the model streams; may quote answers of earlier steps. */
  readonly text?: string;
  /** Tool calls the model makes after its text; the turn goes on to the next step after them. */
  readonly toolCalls?: readonly ScriptToolCall[];
}

/**
 * A script for the scripted model: the assistant's steps, replayed in order. After the last
 * step, the person's next message starts the script again; a step whose tool calls were
 * cancelled is played again at the next message.
 */
export interface Script {
  /** What the script shows, for its readers. */
  readonly description?: string;
  /** The steps, in order. A step without tool calls ends the turn. */
  readonly steps: readonly ScriptStep[];
  /**
   * What the model says, in one line, when the last step made tool calls and the turn goes on
   * past it; the turn then ends.
   */
  readonly end?: string;
}

/** What the scripted model says past the last step of a script that sets no `end`. */
export const DEFAULT_SCRIPT_END = 'The script has no more steps.';
