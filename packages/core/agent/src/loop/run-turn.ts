import {
  ASK_USER_QUESTION_TOOL_NAME,
  INTERNAL_ERROR_CODE,
  toToolError,
} from 'dsh-user-interaction';
import { ABORTED, abortable, raceAbort } from '../cancellation/abortable.js';
import type {
  Model,
  ModelEvent,
  ModelMessage,
  ModelToolCall,
  ModelToolSchema,
} from '../models/model.js';
import { AgentError } from './agent-error.js';
import type { AgentEvent, TurnEndEvent } from './agent-event.js';
import type { AgentInteraction, AgentTool, ToolCallDescription, ToolResult } from './agent-tool.js';
import type { ConversationEntry, ConversationRecorder } from './conversation-entry.js';
import type { PermissionPolicy } from './permission-policy.js';
import type { ResumePoint } from './restore-conversation.js';
import { approveCall, deniedResult } from './tool-approval.js';
import {
  cancelledResult,
  cancelledWhileRunningResult,
  describeToolCall,
  executeToolCall,
  type PreparedToolCall,
  prepareToolCall,
  stoppedWhileRunningResult,
} from './tool-call-runner.js';
import { TurnLog } from './turn-log.js';

/** What a turn needs from its agent. */
export interface TurnSetup {
  readonly agentId: string;
  readonly model: Model;
  readonly interaction: AgentInteraction;
  readonly tools: ReadonlyMap<string, AgentTool>;
  readonly maxSteps: number;
  readonly questionTimeoutMs: number | undefined;
  /** Decides the calls of tools that describe themselves, before they run. */
  readonly permissions: PermissionPolicy;
  /** Where each entry of the conversation is recorded as it happens. */
  readonly recorder: ConversationRecorder | undefined;
}

type StepOutcome =
  | { readonly kind: 'calls'; readonly calls: readonly ModelToolCall[] }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'error'; readonly error: unknown };

const FINISHED: TurnEndEvent = Object.freeze({ type: 'turn-end', reason: 'finished' });
const CANCELLED: TurnEndEvent = Object.freeze({ type: 'turn-end', reason: 'cancelled' });

function describeTools(setup: TurnSetup): ModelToolSchema[] {
  const context = { capabilities: setup.interaction.capabilities };
  return [...setup.tools.values()].map((tool) => ({
    name: tool.name,
    description:
      typeof tool.description === 'function' ? tool.description(context) : tool.description,
    parameters: tool.parameters,
  }));
}

function checkCall(call: ModelToolCall): ModelToolCall {
  // Ids must be unique in the whole conversation: a missing one gets a random one.
  const id =
    typeof call.id === 'string' && call.id !== ''
      ? call.id
      : `call_${globalThis.crypto.randomUUID()}`;
  const name = typeof call.name === 'string' ? call.name : String(call.name);
  const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
  return id === call.id && name === call.name && args === call.arguments
    ? call
    : Object.freeze({ id, name, arguments: args ?? '' });
}

/** A model's `retry` event as the turn streams it, or `undefined` when it is malformed. */
function retryEvent(event: Extract<ModelEvent, { type: 'retry' }>): AgentEvent | undefined {
  const { attempt, attempts, delayMs, error } = event;
  const count = (value: unknown): value is number =>
    typeof value === 'number' && Number.isFinite(value) && value >= 0;
  if (!count(attempt) || !count(attempts) || !count(delayMs)) return undefined;
  return {
    type: 'retry',
    attempt,
    attempts,
    delayMs,
    error: {
      name: String(error?.name ?? 'Error'),
      code: String(error?.code ?? INTERNAL_ERROR_CODE),
      message: String(error?.message ?? ''),
    },
  };
}

async function* streamStep(
  setup: TurnSetup,
  messages: readonly ModelMessage[],
  log: TurnLog,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, StepOutcome, undefined> {
  const calls: ModelToolCall[] = [];
  try {
    const request = { messages: messages.slice(), tools: describeTools(setup), signal };
    for await (const event of abortable(setup.model.stream(request), signal)) {
      if (event.type === 'reasoning-delta') {
        if (typeof event.text !== 'string') continue;
        log.addReasoning(event.text, typeof event.field === 'string' ? event.field : undefined);
        if (event.text !== '') yield { type: 'reasoning', text: event.text };
      } else if (event.type === 'text-delta') {
        if (typeof event.text !== 'string' || event.text === '') continue;
        log.addText(event.text);
        yield { type: 'text', text: event.text };
      } else if (event.type === 'tool-call') {
        calls.push(checkCall(event.call));
      } else if (event.type === 'retry') {
        const retry = retryEvent(event);
        if (retry !== undefined) yield retry;
      }
    }
  } catch (error) {
    return signal.aborted ? { kind: 'cancelled' } : { kind: 'error', error };
  }
  return signal.aborted ? { kind: 'cancelled' } : { kind: 'calls', calls };
}

/**
 * Runs a call. Cancelled before it started, or stopped while it ran when it changes nothing,
 * it settles with `undefined` (it did not run); stopped while it ran when it may have acted, with
 * the result that says so.
 */
async function runCall(
  setup: TurnSetup,
  log: TurnLog,
  prepared: PreparedToolCall,
  signal: AbortSignal,
  asked?: { value: boolean },
  pending?: string,
): Promise<ToolResult | undefined> {
  if (signal.aborted) return undefined;
  const stopped = () => (mayAct(prepared) ? cancelledWhileRunningResult() : undefined);
  const onAsk = () => {
    if (asked !== undefined) asked.value = true;
    return log.addPosed(prepared.call, 'question');
  };
  const onPermission = () => {
    if (asked !== undefined) asked.value = true;
  };
  const onPending = (state: string) => {
    if (asked !== undefined) asked.value = true;
    return log.addPending(prepared.call, state);
  };
  const scope = { ...setup, signal, onAsk, onPermission, onPending };
  const result = await raceAbort(
    executeToolCall(prepared, pending === undefined ? scope : { ...scope, pending }),
    signal,
  );
  if (result === ABORTED) return stopped();
  // A failure caused by the cancel itself (such as ASK_ABORTED) is the cancel; an answer given first is kept.
  if (signal.aborted && !result.ok) return stopped();
  return result;
}

/** Kinds of calls that change nothing: run again when the program stopped while they ran. */
const CHANGES_NOTHING: ReadonlySet<string> = new Set(['read', 'search', 'think']);

/**
 * Whether a call may have acted once it started: unless its tool describes it as a call that
 * changes nothing, or it is the question tool (a question withdrawn did nothing). A tool that
 * does not describe its calls may do anything.
 */
function mayAct(prepared: PreparedToolCall): boolean {
  const { description } = prepared;
  if (description === undefined) return prepared.call.name !== ASK_USER_QUESTION_TOOL_NAME;
  return !CHANGES_NOTHING.has(description.kind);
}

type StoredApproval = Extract<ConversationEntry, { type: 'approval' }>;

/**
 * Whether a call allowed before the program stopped, with no result, runs again: only when the
 * tool describes it now, as then, as a call that changes nothing, and the rules allow it now
 * without asking (a stored decision alone never runs anything).
 */
async function runsAgain(
  setup: TurnSetup,
  prepared: PreparedToolCall,
  stored: StoredApproval,
  now: ToolCallDescription | undefined,
): Promise<boolean> {
  if (now === undefined || prepared.failure !== undefined || !CHANGES_NOTHING.has(now.kind)) {
    return false;
  }
  if (canonical(now) !== canonical(stored.description)) return false;
  try {
    const verdict = await setup.permissions.decide({
      toolName: prepared.call.name,
      args: prepared.args,
      description: now,
    });
    return verdict.decision === 'allow';
  } catch {
    return false;
  }
}

/** JSON with every object's keys in order, so that equal values give equal text. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, field: unknown) =>
    field !== null && typeof field === 'object' && !Array.isArray(field)
      ? Object.fromEntries(
          Object.entries(field as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : field,
  );
}

/**
 * Runs the step's calls one after another; returns true when the turn was cancelled. `decided`:
 * the decision stored for the first call before the program stopped (a turn that goes on).
 */
async function* runCalls(
  setup: TurnSetup,
  log: TurnLog,
  calls: readonly ModelToolCall[],
  signal: AbortSignal,
  decided?: StoredApproval,
  pending?: string,
): AsyncGenerator<AgentEvent, boolean, undefined> {
  for (const call of calls) {
    if (signal.aborted) break;
    let prepared = prepareToolCall(call, setup.tools);
    const described = await raceAbort(describeToolCall(prepared, signal), signal);
    if (described === ABORTED) break;
    prepared = described;
    const { description } = prepared;
    yield {
      type: 'tool-call',
      id: call.id,
      name: call.name,
      title: description?.title ?? prepared.title,
      arguments: prepared.args,
      ...(description !== undefined && { description }),
    };
    let result: ToolResult | undefined;
    // Whether the call's decision was just made durable: then its result holds no answer of
    // the person's unless the call asked one, and the agent goes on while it is being stored
    // (its fsync started at once, not waited for). Lost to a power failure in that moment, the
    // call is found decided without a result, and is never run a second time (`runsAgain`,
    // `closingEntries`). A decision read back from the file is not known to be durable (the
    // program may have been killed before its fsync): that call's result is waited for.
    let decidedDurably = false;
    const asked = { value: false };
    const stored = decided?.toolCallId === call.id ? decided : undefined;
    if (stored !== undefined) {
      // Decided before the program stopped: the decision stands, and a call that acts and was
      // allowed may have run already, so it never runs a second time.
      const { outcome } = stored;
      yield { type: 'tool-approval', id: call.id, name: call.name, outcome };
      if (!outcome.allowed) result = deniedResult(outcome);
      else if (pending !== undefined && prepared.failure === undefined) {
        // It stored what it needs to go on with the question it asked: it goes on from there.
        result = await runCall(setup, log, prepared, signal, asked, pending);
      } else if (await runsAgain(setup, prepared, stored, description)) {
        result = await runCall(setup, log, prepared, signal, asked);
      } else result = stoppedWhileRunningResult();
    } else if (description !== undefined && prepared.failure === undefined) {
      const onAsk = () => log.addPosed(call, 'approval');
      const approval = await approveCall(prepared, description, { ...setup, signal, onAsk });
      log.addApproval(call, description, approval.outcome);
      // The person's decision is stored before anything acts on it.
      await log.flush();
      decidedDurably = true;
      yield {
        type: 'tool-approval',
        id: call.id,
        name: call.name,
        outcome: approval.outcome,
        ...(approval.warning !== undefined && { warning: approval.warning }),
      };
      if (!approval.outcome.allowed) {
        result = signal.aborted ? undefined : deniedResult(approval.outcome);
      } else {
        result = await runCall(setup, log, prepared, signal, asked);
      }
    } else {
      result = await runCall(setup, log, prepared, signal);
    }
    result ??= cancelledResult();
    log.addResult(call, result);
    // An answer is stored before the agent goes on with it; so is the result of a call that
    // was never decided (it could not be told from one that never ran).
    if (!decidedDurably || asked.value) await log.flush();
    else log.flushSoon();
    yield { type: 'tool-result', id: call.id, name: call.name, result };
  }
  return signal.aborted;
}

function stepLimit(maxSteps: number): TurnEndEvent {
  const error = new AgentError(
    `The model used all ${maxSteps} steps of this turn without finishing, so the turn was stopped. Send a message to let it continue.`,
    'STEP_LIMIT',
  );
  return { type: 'turn-end', reason: 'step-limit', error: toToolError(error) };
}

/**
 * The steps of a turn, until one ends it: resolves with the `turn-end` event to give. `first`:
 * the number of the first step (a turn that goes on has made steps already).
 */
async function* steps(
  setup: TurnSetup,
  messages: readonly ModelMessage[],
  log: TurnLog,
  signal: AbortSignal,
  first = 1,
): AsyncGenerator<AgentEvent, TurnEndEvent, undefined> {
  for (let step = first; ; step++) {
    if (signal.aborted) return CANCELLED;
    const outcome = yield* streamStep(setup, messages, log, signal);
    if (outcome.kind === 'cancelled') return CANCELLED;
    if (outcome.kind === 'error') {
      return { type: 'turn-end', reason: 'error', error: toToolError(outcome.error) };
    }
    log.commitStep(outcome.calls);
    if (outcome.calls.length === 0) return FINISHED;
    if (yield* runCalls(setup, log, outcome.calls, signal)) return CANCELLED;
    if (step >= setup.maxSteps) return stepLimit(setup.maxSteps);
  }
}

function failed(error: unknown): TurnEndEvent {
  return { type: 'turn-end', reason: 'error', error: toToolError(error) };
}

/**
 * One turn: the prompt, then model steps and their tool calls until the model ends its turn,
 * the step limit is reached, the signal aborts or something fails. The conversation is
 * closed (streamed text kept, open calls given a result, the end written) and stored before
 * the `turn-end` event, and also when the consumer stops iterating (a cancel): it stays
 * valid whichever way the turn ends.
 */
export async function* runTurn(
  setup: TurnSetup,
  messages: ModelMessage[],
  prompt: string,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, void, undefined> {
  const log = new TurnLog(messages, setup.recorder);
  const written = log.addPrompt(prompt);
  yield* loggedTurn(log, async function* () {
    // The prompt is acted on (the model asked) once it is written: a kill then never loses it.
    // A cancel meanwhile (a new session's file still being made on a stalled disk) is not held.
    if (written !== undefined) await raceAbort(written, signal);
    return yield* steps(setup, messages, log, signal);
  });
}

/**
 * The rest of a turn the program left while something was put to the person (see
 * `ResumePoint`): the open calls of its last step, in order (the one that waited asks again,
 * the answers already stored stay, a call that acts and was approved never runs twice), then
 * model steps as in any turn. Its first step counts as the second of the turn.
 */
export async function* resumeTurn(
  setup: TurnSetup,
  messages: ModelMessage[],
  point: ResumePoint,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, void, undefined> {
  const log = new TurnLog(messages, setup.recorder, point.order);
  yield* loggedTurn(log, async function* () {
    const open = log.openCalls;
    const going = runCalls(setup, log, open, signal, point.decided, point.pending);
    if (open.length > 0 && (yield* going)) {
      return CANCELLED;
    }
    if (setup.maxSteps <= 1) return stepLimit(setup.maxSteps);
    return yield* steps(setup, messages, log, signal, 2);
  });
}

/** Runs a turn's steps, then closes and stores the turn whichever way it ends. */
async function* loggedTurn(
  log: TurnLog,
  body: () => AsyncGenerator<AgentEvent, TurnEndEvent, undefined>,
): AsyncGenerator<AgentEvent, void, undefined> {
  let end: TurnEndEvent | undefined;
  try {
    end = yield* body();
  } catch (error) {
    // A fault of a tool description, of this loop or of the recorder ends the turn; it never
    // escapes to the UI.
    end = failed(error);
  } finally {
    // No end yet: the consumer stopped iterating, which cancels the turn.
    log.close(end ?? CANCELLED);
    try {
      await log.flush();
    } catch (error) {
      // The turn's end could not be stored: say so rather than report it as it went.
      if (end !== undefined && end.reason !== 'error') end = failed(error);
    }
  }
  yield end;
}
