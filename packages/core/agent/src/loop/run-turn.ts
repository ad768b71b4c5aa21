import { INTERNAL_ERROR_CODE, toToolError } from 'dsh-user-interaction';
import { ABORTED, AbortableIterator, raceAbort } from '../cancellation/abortable.js';
import type {
  Model,
  ModelEvent,
  ModelMessage,
  ModelToolCall,
  ModelToolSchema,
} from '../models/model.js';
import { AgentError } from './agent-error.js';
import type { AgentEvent, TurnEndEvent } from './agent-event.js';
import type { AgentInteraction, AgentTool } from './agent-tool.js';
import type { ConversationRecorder } from './conversation-entry.js';
import type { PermissionPolicy } from './permission-policy.js';
import type { ResumePoint } from './restore-conversation.js';
import { cancelledResult, describeToolCall, prepareToolCall } from './tool-call-runner.js';
import {
  approvalEvent,
  decideCall,
  type StoredApproval,
  settleCall,
  toolCallEvent,
} from './turn-calls.js';
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

/** Where a turn starts: the person's prompt, or the turn the program left while it asked. */
export type TurnStart = { readonly prompt: string } | { readonly point: ResumePoint };

/** The agent's side of a turn, called as iteration starts and once the turn is over. */
export interface TurnScope {
  /**
   * Marks the agent busy and says where the turn starts, or `undefined` when there is nothing
   * to go on with (then no turn runs). Throws (`AGENT_BUSY`) when another turn runs.
   */
  begin(): TurnStart | undefined;
  /** The turn is over (ended, cancelled, or left by its consumer). */
  end(): void;
}

function stepLimit(maxSteps: number): TurnEndEvent {
  const error = new AgentError(
    `The model used all ${maxSteps} steps of this turn without finishing, so the turn was stopped. Send a message to let it continue.`,
    'STEP_LIMIT',
  );
  return { type: 'turn-end', reason: 'step-limit', error: toToolError(error) };
}

function failed(error: unknown): TurnEndEvent {
  return { type: 'turn-end', reason: 'error', error: toToolError(error) };
}

const TURN_ENDED = new AgentError('The turn has ended.', 'TURN_CANCELLED');

/**
 * One turn, from the person's prompt or from where the program left it (`TurnStart`): model
 * steps and their tool calls until the model ends its turn, the step limit is reached, the
 * signal aborts or something fails. A turn that goes on runs the open calls of its last step
 * first, in order (the one that waited asks again, the answers already stored stay, a call that
 * acts and was approved never runs twice); its first model step counts as the second. The
 * conversation is closed (streamed text kept, open calls given a result, the end written) and
 * stored before the `turn-end` event, and also when the consumer stops iterating (a cancel): it
 * stays valid whichever way the turn ends.
 *
 * One generator from the model's stream to the consumer: an event crosses one `yield`, and the
 * turn has one AbortController (`given`, or its own), aborted by `signal`, by the consumer
 * leaving, and at its end.
 */
export async function* runTurn(
  setup: TurnSetup,
  messages: ModelMessage[],
  scope: TurnScope,
  outer: AbortSignal | undefined,
  given?: AbortController,
): AsyncGenerator<AgentEvent, void, undefined> {
  const start = scope.begin();
  if (start === undefined) return;
  // The turn's own controller (the caller's, when it made one for this turn) also aborts when
  // the consumer stops iterating.
  const controller = given ?? new AbortController();
  const onAbort = (): void => controller.abort(outer?.reason);
  if (outer?.aborted) onAbort();
  else outer?.addEventListener('abort', onAbort, { once: true });
  const { signal } = controller;
  try {
    const resumed = 'point' in start ? start.point : undefined;
    const log = new TurnLog(messages, setup.recorder, resumed?.order);
    const written =
      resumed === undefined ? log.addPrompt((start as { prompt: string }).prompt) : undefined;
    let end: TurnEndEvent | undefined;
    try {
      // The prompt is acted on (the model asked) once it is written: a kill then never loses it.
      // A cancel meanwhile (a new session's file still being made on a stalled disk) is not held.
      if (written !== undefined) await raceAbort(written, signal);
      // A turn that goes on starts with the open calls of its first step, streamed before.
      let calls: readonly ModelToolCall[] | undefined = resumed?.order.openCalls;
      let decided: StoredApproval | undefined = resumed?.decided;
      const pending = resumed?.pending;
      for (let step = 1; end === undefined; step++) {
        if (calls === undefined) {
          if (signal.aborted) {
            end = CANCELLED;
            break;
          }
          // The model's step: each event it streams goes straight to the consumer.
          const streamed: ModelToolCall[] = [];
          let source: AbortableIterator<ModelEvent> | undefined;
          try {
            const request = { messages: messages.slice(), tools: describeTools(setup), signal };
            source = new AbortableIterator(setup.model.stream(request), signal);
            for (;;) {
              const next = await source.next();
              if (next === ABORTED || next.done === true) break;
              const event = next.value;
              if (event.type === 'text-delta') {
                if (typeof event.text !== 'string' || event.text === '') continue;
                log.addText(event.text);
                yield { type: 'text', text: event.text };
              } else if (event.type === 'reasoning-delta') {
                if (typeof event.text !== 'string') continue;
                const field = typeof event.field === 'string' ? event.field : undefined;
                log.addReasoning(event.text, field);
                if (event.text !== '') yield { type: 'reasoning', text: event.text };
              } else if (event.type === 'tool-call') {
                streamed.push(checkCall(event.call));
              } else if (event.type === 'retry') {
                const retry = retryEvent(event);
                if (retry !== undefined) yield retry;
              }
            }
          } catch (error) {
            if (!signal.aborted) end = failed(error);
          } finally {
            source?.close();
          }
          if (signal.aborted) end = CANCELLED;
          if (end !== undefined) break;
          log.commitStep(streamed);
          if (streamed.length === 0) {
            end = FINISHED;
            break;
          }
          calls = streamed;
        }
        // The step's calls, one after another.
        for (const call of calls) {
          if (signal.aborted) break;
          const prepared = prepareToolCall(call, setup.tools);
          // A call whose tool has no `describe` (the question tool) has nothing to wait for.
          const described =
            prepared.failure === undefined && prepared.tool.describe !== undefined
              ? await raceAbort(describeToolCall(prepared, signal), signal)
              : prepared;
          if (described === ABORTED) break;
          yield toolCallEvent(described);
          const stored = decided?.toolCallId === call.id ? decided : undefined;
          const decision = await decideCall(setup, log, described, signal, stored);
          const approval = approvalEvent(call, decision);
          if (approval !== undefined) yield approval;
          const asked = { value: false };
          const result =
            (await settleCall(
              setup,
              log,
              described,
              decision,
              signal,
              asked,
              stored === undefined ? undefined : pending,
            )) ?? cancelledResult();
          log.addResult(call, result);
          // An answer is stored before the agent goes on with it; so is the result of a call
          // that was never decided (it could not be told from one that never ran). A decision
          // just made durable lets the agent go on while the result is stored (its fsync
          // started at once, not waited for): lost to a power failure in that moment, the call
          // is found decided without a result, and is never run a second time (`runsAgain`,
          // `closingEntries`). A decision read back from the file is not known to be durable
          // (the program may have been killed before its fsync): that call's result is waited for.
          if (decision.kind !== 'decided' || asked.value) await log.flush();
          else log.flushSoon();
          yield { type: 'tool-result', id: call.id, name: call.name, result };
        }
        if (calls.length > 0 && signal.aborted) end = CANCELLED;
        else if (step >= setup.maxSteps) end = stepLimit(setup.maxSteps);
        calls = undefined;
        decided = undefined;
      }
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
  } finally {
    outer?.removeEventListener('abort', onAbort);
    // Stops whatever the turn left running. A reason given up front spares building a
    // DOMException at the end of every turn.
    controller.abort(TURN_ENDED);
    scope.end();
  }
}
