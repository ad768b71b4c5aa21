import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { AgentEvent, TurnEndEvent } from 'dsh-agent';
import {
  retryNotice,
  type ShownToolCall,
  textUpdate,
  thoughtUpdate,
  toolApprovalUpdate,
  toolCallUpdate,
  toolResultUpdate,
} from './agent-event-updates.js';

/**
 * The session updates of one session's turns, from its agent's events: keeps the map from the
 * agent's tool call ids to the ACP ones, unique in the session, and what each call of the turn
 * shows.
 */
export class TurnUpdates {
  readonly #notices: () => boolean;
  // ACP tool call ids must be unique in a session; models may reuse theirs across turns.
  readonly #usedToolCallIds = new Set<string>();
  readonly #toolCallIds = new Map<string, string>();
  // What each call of the turn does and who decided it, by agent call id: a call's updates
  // replace its content, so each one says it all again.
  readonly #shown = new Map<string, ShownToolCall>();

  /** `notices`: whether the client takes `notice` updates. */
  constructor(notices: () => boolean) {
    this.#notices = notices;
  }

  /** The ACP id of an agent's tool call of this turn, if it was shown. */
  toolCallIdOf(agentCallId: string): string | undefined {
    return this.#toolCallIds.get(agentCallId);
  }

  /** The turn ended: its calls are forgotten (their ACP ids stay taken). */
  endTurn(): void {
    this.#toolCallIds.clear();
    this.#shown.clear();
  }

  /** The update that shows `event`, if the client is to see it. */
  updateFor(event: Exclude<AgentEvent, TurnEndEvent>): SessionUpdate | undefined {
    switch (event.type) {
      case 'retry':
        // A client without notices sees the turn go on; its end says what failed.
        return this.#notices() ? retryNotice(event) : undefined;
      case 'reasoning':
        return thoughtUpdate(event.text);
      case 'text':
        return textUpdate(event.text);
      case 'tool-call':
        this.#shown.set(event.id, { description: event.description });
        return toolCallUpdate(event, this.#assignToolCallId(event.id));
      case 'tool-approval': {
        const { description } = this.#shown.get(event.id) ?? {};
        this.#shown.set(event.id, { description, approval: event });
        return toolApprovalUpdate(event, this.#acpIdOf(event.id), description);
      }
      case 'tool-result': {
        const shown = this.#shown.get(event.id);
        this.#shown.delete(event.id);
        return toolResultUpdate(event, this.#acpIdOf(event.id), shown);
      }
    }
  }

  #acpIdOf(agentCallId: string): string {
    return this.#toolCallIds.get(agentCallId) ?? agentCallId;
  }

  #assignToolCallId(agentCallId: string): string {
    let toolCallId = agentCallId;
    for (let copy = 2; this.#usedToolCallIds.has(toolCallId); copy++) {
      toolCallId = `${agentCallId}#${copy}`;
    }
    this.#usedToolCallIds.add(toolCallId);
    this.#toolCallIds.set(agentCallId, toolCallId);
    return toolCallId;
  }
}
