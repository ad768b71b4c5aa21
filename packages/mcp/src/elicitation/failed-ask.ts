import { isUserInteractionError } from 'dsh-user-interaction';

/** The `_meta` key of an MCP elicitation result that says why it was declined or cancelled unasked. */
export const REASON_KEY = 'dev.dsh/reason';

/** The MCP result for a failed ask: the person's decline, a cancel, or a decline with the reason. */
export function failedAsk(error: unknown): { action: 'decline' | 'cancel'; reason?: string } {
  if (isUserInteractionError(error, 'ASK_DECLINED')) return { action: 'decline' };
  if (isUserInteractionError(error, 'ASK_CANCELLED')) return { action: 'cancel' };
  // Cancelled without the person choosing so: the reason goes with it.
  for (const code of ['ASK_ABORTED', 'ASK_TIMEOUT', 'INPUT_CLOSED'] as const) {
    if (isUserInteractionError(error, code)) return { action: 'cancel', reason: code };
  }
  const reason = isUserInteractionError(error) ? `${error.code}: ${error.message}` : 'ASK_FAILED';
  return { action: 'decline', reason };
}
