import { ASK_USER_QUESTION_TOOL_NAME, type PermissionOutcome } from 'dsh-user-interaction';
import { ABORTED, raceAbort } from '../cancellation/abortable.js';
import type { ModelToolCall } from '../models/model.js';
import type { AgentEvent } from './agent-event.js';
import type { ToolCallDescription, ToolResult } from './agent-tool.js';
import type { ConversationEntry } from './conversation-entry.js';
import type { TurnSetup } from './run-turn.js';
import { approveCall, deniedResult } from './tool-approval.js';
import {
  cancelledWhileRunningResult,
  executeToolCall,
  type PreparedToolCall,
  stoppedWhileRunningResult,
} from './tool-call-runner.js';
import type { TurnLog } from './turn-log.js';

// The steps of one tool call of a turn, between the events `runTurn` gives: its decision
// (`decideCall`, before the `tool-approval` event) and its result (`settleCall`, before the
// `tool-result` event). Plain async functions: the turn's one generator yields their events.

/** A decision stored before the program stopped, for the call a turn that goes on starts with. */
export type StoredApproval = Extract<ConversationEntry, { type: 'approval' }>;

/** How a call was decided, before it runs. */
export type CallDecision =
  /** A tool that does not describe its calls, or a call that cannot run: it runs (or fails) at once. */
  | { readonly kind: 'undecided' }
  /** Decided now (a rule, the policy or the person), and made durable before anything acts. */
  | { readonly kind: 'decided'; readonly outcome: PermissionOutcome; readonly warning?: string }
  /** Decided before the program stopped: the decision stands. */
  | { readonly kind: 'stored'; readonly stored: StoredApproval };

/** Kinds of calls that change nothing: run again when the program stopped while they ran. */
const CHANGES_NOTHING: ReadonlySet<string> = new Set(['read', 'search', 'think']);

/** The `tool-call` event of a prepared (described) call. */
export function toolCallEvent(prepared: PreparedToolCall): AgentEvent {
  const { call, description } = prepared;
  return {
    type: 'tool-call',
    id: call.id,
    name: call.name,
    title: description?.title ?? prepared.title,
    arguments: prepared.args,
    ...(description !== undefined && { description }),
  };
}

/**
 * Decides the call before it runs: a stored decision stands; a described call is decided now
 * (the person's decision is stored before anything acts on it); any other call is not decided.
 */
export async function decideCall(
  setup: TurnSetup,
  log: TurnLog,
  prepared: PreparedToolCall,
  signal: AbortSignal,
  stored: StoredApproval | undefined,
): Promise<CallDecision> {
  if (stored !== undefined) return { kind: 'stored', stored };
  const { call, description } = prepared;
  if (description === undefined || prepared.failure !== undefined) return { kind: 'undecided' };
  const onAsk = () => log.addPosed(call, 'approval');
  const approval = await approveCall(prepared, description, { ...setup, signal, onAsk });
  log.addApproval(call, description, approval.outcome);
  await log.flush();
  return approval.warning === undefined
    ? { kind: 'decided', outcome: approval.outcome }
    : { kind: 'decided', outcome: approval.outcome, warning: approval.warning };
}

/** The `tool-approval` event of a decision, or `undefined` for a call that was not decided. */
export function approvalEvent(call: ModelToolCall, decision: CallDecision): AgentEvent | undefined {
  if (decision.kind === 'undecided') return undefined;
  if (decision.kind === 'stored') {
    return {
      type: 'tool-approval',
      id: call.id,
      name: call.name,
      outcome: decision.stored.outcome,
    };
  }
  return {
    type: 'tool-approval',
    id: call.id,
    name: call.name,
    outcome: decision.outcome,
    ...(decision.warning !== undefined && { warning: decision.warning }),
  };
}

/**
 * Runs the call as decided, and settles with its result, or `undefined` when it did not run
 * (cancelled first). `asked.value` turns true when the call put something to the person.
 * `pending`: the state a stored call kept to go on with the question it asked.
 */
export async function settleCall(
  setup: TurnSetup,
  log: TurnLog,
  prepared: PreparedToolCall,
  decision: CallDecision,
  signal: AbortSignal,
  asked: { value: boolean },
  pending: string | undefined,
): Promise<ToolResult | undefined> {
  if (decision.kind === 'undecided') return runCall(setup, log, prepared, signal);
  if (decision.kind === 'decided') {
    if (decision.outcome.allowed) return runCall(setup, log, prepared, signal, asked);
    return signal.aborted ? undefined : deniedResult(decision.outcome);
  }
  // Decided before the program stopped: the decision stands, and a call that acts and was
  // allowed may have run already, so it never runs a second time.
  const { stored } = decision;
  if (!stored.outcome.allowed) return deniedResult(stored.outcome);
  if (pending !== undefined && prepared.failure === undefined) {
    // It stored what it needs to go on with the question it asked: it goes on from there.
    return runCall(setup, log, prepared, signal, asked, pending);
  }
  if (await runsAgain(setup, prepared, stored, prepared.description)) {
    return runCall(setup, log, prepared, signal, asked);
  }
  return stoppedWhileRunningResult();
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
