import { type ToolError, toToolError } from 'dsh-user-interaction';
import type { ModelToolCall } from '../models/model.js';
import { AgentError } from './agent-error.js';
import type {
  AgentInteraction,
  AgentTool,
  ToolCallDescription,
  ToolContext,
  ToolResult,
} from './agent-tool.js';
import { POSED_STATE_LIMIT } from './read-conversation-entry.js';
import { createToolCallAgent } from './tool-call-agent.js';

/** A tool call checked and parsed, ready to announce and run. */
export type PreparedToolCall = {
  readonly call: ModelToolCall;
  /** The parsed arguments, or the raw text when it is not JSON. */
  readonly args: unknown;
  readonly title: string;
  /** What the call will do, for a tool with `describe` (once described). */
  readonly description?: ToolCallDescription;
} & (
  | { readonly tool: AgentTool; readonly failure?: undefined }
  /** The call cannot run: `failure` is the result the model gets instead. */
  | { readonly tool?: AgentTool; readonly failure: ToolResult }
);

/** Where a tool call runs. */
export interface ToolCallScope {
  readonly agentId: string;
  readonly interaction: AgentInteraction;
  readonly questionTimeoutMs: number | undefined;
  readonly signal: AbortSignal;
  /**
   * Called right before the call puts a question to the person (to record it); the question
   * is shown once what it returns resolves (the record written).
   */
  readonly onAsk?: () => Promise<void> | undefined;
  /** Called right before the call asks the person for a permission of its own. */
  readonly onPermission?: () => void;
  /** Stores the call's `ToolContext.recordPending` state, durably. */
  readonly onPending?: (state: string) => Promise<void>;
  /** The state the call stored before the program stopped (`ToolContext.pending`). */
  readonly pending?: string;
}

/** `interaction`, calling `onAsk` (and waiting for what it returns) before each question it asks. */
function announcingQuestions(
  interaction: AgentInteraction,
  onAsk: (() => Promise<void> | undefined) | undefined,
  onPermission?: () => void,
): AgentInteraction {
  if (onAsk === undefined) return interaction;
  const { askAll, requestPermission } = interaction;
  const announced =
    <Request, Answer>(send: (request: Request) => Promise<Answer>) =>
    async (request: Request): Promise<Answer> => {
      const recorded = onAsk();
      if (recorded !== undefined) await recorded;
      return send(request);
    };
  return {
    get capabilities() {
      return interaction.capabilities;
    },
    ask: announced(interaction.ask.bind(interaction)),
    ...(askAll !== undefined && { askAll: announced(askAll.bind(interaction)) }),
    ...(requestPermission !== undefined && {
      requestPermission: (request: Parameters<typeof requestPermission>[0]) => {
        onPermission?.();
        return requestPermission.call(interaction, request);
      },
    }),
  } as AgentInteraction;
}

/** The error result of a failure, in the shape the contract's tool uses. */
export function errorResult(error: unknown): ToolResult {
  const toolError = toToolError(error);
  return { ok: false, output: JSON.stringify({ error: toolError }), error: toolError };
}

/** The result given to a call that the cancellation of its turn left without one. */
export function cancelledResult(): ToolResult {
  return errorResult(
    new AgentError(
      'This tool call did not complete: the person cancelled the turn. Do not assume it ran.',
      'TURN_CANCELLED',
    ),
  );
}

/**
 * The result given to a call the cancellation of its turn stopped while it ran, when it may have
 * acted (its tool does not say it changes nothing): part of it may have been done, so the model
 * is not told it did not run.
 */
export function cancelledWhileRunningResult(): ToolResult {
  return errorResult(
    new AgentError(
      'This tool call was stopped while it ran: the person cancelled the turn. It may have run in part or in whole: check what it did before calling it again.',
      'TURN_CANCELLED',
    ),
  );
}

/**
 * The result given, when a turn goes on after the program stopped, to a call that acts and was
 * approved and started, but has no result: it is never run twice.
 */
export function stoppedWhileRunningResult(): ToolResult {
  return errorResult(
    new AgentError(
      'This tool call was approved and started, but the agent stopped (a crash or a kill) before it finished: it may have run in part or in whole. Check what it did before calling it again.',
      'TOOL_INTERRUPTED',
    ),
  );
}

/**
 * The result given, when a turn left by a stop (a crash or a kill) is closed, to the first call
 * without a result when nothing was stored for it: no decision, nothing put to the person. A
 * call of a tool without `describe` runs with nothing stored before it, so it may have started.
 * (A described call is decided before it runs, so one found so had not started; the file does
 * not tell the two apart, and the wording errs on the side that never runs a call twice.)
 */
export function mayHaveStartedResult(): ToolResult {
  return errorResult(
    new AgentError(
      'This tool call had no result when the agent stopped (a crash or a kill), and nothing tells whether it had started: it may have run in part or in whole. Check what it did before calling it again.',
      'TOOL_INTERRUPTED',
    ),
  );
}

/**
 * The result given to a call left without one because the program stopped in the middle of
 * the turn (a crash or a kill), when the conversation is restored: one that cannot have
 * started (it was refused, put to the person, or comes after another open call).
 */
export function interruptedResult(): ToolResult {
  return errorResult(
    new AgentError(
      'This tool call did not complete: the agent stopped before the turn ended. Do not assume it ran.',
      'TURN_CANCELLED',
    ),
  );
}

function parseArguments(
  text: string,
): { ok: true; value: unknown } | { ok: false; reason: string } {
  // Some models send an empty string for a call without arguments.
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

function titleOf(tool: AgentTool | undefined, name: string, args: unknown): string {
  let title: unknown = name;
  try {
    if (tool?.title !== undefined) title = tool.title(args);
  } catch {
    // A broken title must not break the call: the name is a fine title.
  }
  const line = typeof title === 'string' ? title.replace(/\s+/g, ' ').trim() : '';
  return line === '' ? name : line;
}

/** Finds the tool and parses the arguments; unknown tools and malformed JSON become failures. */
export function prepareToolCall(
  call: ModelToolCall,
  tools: ReadonlyMap<string, AgentTool>,
): PreparedToolCall {
  const tool = tools.get(call.name);
  const parsed = parseArguments(call.arguments);
  const args = parsed.ok ? parsed.value : call.arguments;
  // A title is made from parsed arguments only: raw text would make a misleading one.
  const title = titleOf(parsed.ok ? tool : undefined, call.name, args);
  if (tool === undefined) {
    const known = [...tools.keys()].join(', ');
    const failure = errorResult(
      new AgentError(
        `There is no tool named "${call.name}". The tools you can call are: ${known}.`,
        'UNKNOWN_TOOL',
      ),
    );
    return { call, args, title, failure };
  }
  if (!parsed.ok) {
    const failure = errorResult(
      new AgentError(
        `The arguments of "${call.name}" are not valid JSON (${parsed.reason}). Call it again with one JSON object.`,
        'INVALID_ARGUMENTS',
      ),
    );
    return { call, args, title, failure, tool };
  }
  return { call, args, title, tool };
}

function isToolError(value: unknown): value is ToolError {
  const error = value as Partial<ToolError> | null | undefined;
  return (
    typeof error?.name === 'string' &&
    typeof error.code === 'string' &&
    typeof error.message === 'string'
  );
}

function checkResult(value: unknown): ToolResult {
  const result = value as Partial<{ ok: unknown; output: unknown; error: unknown }> | null;
  if (typeof result?.output === 'string') {
    if (result.ok === true) return value as ToolResult;
    if (result.ok === false && isToolError(result.error)) return value as ToolResult;
  }
  // The model gets the generic internal error; the tool's author gets a clear cause.
  return errorResult(new TypeError('A tool returned something other than a ToolResult.'));
}

/**
 * Asks the call's tool what it will do, when the tool has `describe`: the call gets its
 * description, or (the tool threw, or said nothing usable) the failure the model gets instead.
 * Never rejects.
 */
export async function describeToolCall(
  prepared: PreparedToolCall,
  signal: AbortSignal,
): Promise<PreparedToolCall> {
  if (prepared.failure !== undefined || prepared.tool.describe === undefined) return prepared;
  try {
    const description = await prepared.tool.describe(prepared.args, {
      signal,
      toolCallId: prepared.call.id,
    });
    if (typeof description?.kind !== 'string') {
      throw new TypeError('A tool’s describe() returned no `kind`.');
    }
    return { ...prepared, description: Object.freeze({ ...description }) };
  } catch (error) {
    return { ...prepared, failure: errorResult(error) };
  }
}

/** Runs a prepared call. Never rejects: every failure becomes an error result. */
export async function executeToolCall(
  prepared: PreparedToolCall,
  scope: ToolCallScope,
): Promise<ToolResult> {
  if (prepared.failure !== undefined) return prepared.failure;
  const { agentId, questionTimeoutMs, signal } = scope;
  const interaction = announcingQuestions(scope.interaction, scope.onAsk, scope.onPermission);
  const agent = createToolCallAgent(agentId, prepared.call.id);
  const context: ToolContext = {
    agent,
    signal,
    toolCallId: prepared.call.id,
    interaction,
    ...(prepared.description !== undefined && { description: prepared.description }),
    ...(scope.pending !== undefined && { pending: scope.pending }),
    recordPending: async (state) => {
      if (typeof state !== 'string' || state.length > POSED_STATE_LIMIT) {
        throw new TypeError(
          `recordPending() takes a string of at most ${POSED_STATE_LIMIT} characters.`,
        );
      }
      await scope.onPending?.(state);
    },
    ask: (question) =>
      interaction.ask({
        ...(questionTimeoutMs !== undefined && { timeoutMs: questionTimeoutMs }),
        ...question,
        agent,
        signal,
      }),
  };
  try {
    return checkResult(await prepared.tool.execute(prepared.args, context));
  } catch (error) {
    return errorResult(error);
  }
}
