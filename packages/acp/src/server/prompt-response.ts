import { type PromptResponse, RequestError } from '@agentclientprotocol/sdk';
import type { TurnEndEvent } from 'dsh-agent';

/** JSON-RPC "internal error": the turn could not finish because its model failed. */
const MODEL_FAILED = -32603;

/**
 * The `session/prompt` response for how a turn ended: `end_turn` when the model finished,
 * `cancelled` when the editor cancelled it (a result, not an error), `max_turn_requests` at
 * the step limit. A model failure throws a JSON-RPC error (`-32603`) whose message is the
 * model error's (it says what to do and never holds a key) and whose data carries its
 * `code` and `name`, so the editor shows it as an error the person can act on.
 */
export function promptResponseFor(end: TurnEndEvent): PromptResponse {
  switch (end.reason) {
    case 'finished':
      return { stopReason: 'end_turn' };
    case 'cancelled':
      return { stopReason: 'cancelled' };
    case 'step-limit':
      return { stopReason: 'max_turn_requests' };
    case 'error':
      throw new RequestError(MODEL_FAILED, end.error.message, {
        code: end.error.code,
        name: end.error.name,
      });
  }
}
