import { askFailedError } from 'dsh-user-interaction';

/** Where a question appears in the editor: its ACP session and, when known, the tool call that asks it. */
export interface QuestionScope {
  /** The ACP session whose turn asked the question. */
  readonly sessionId: string;
  /** The `ask_user_question` tool call, so the editor can show the question next to it. */
  readonly toolCallId?: string | undefined;
}

/** Checks a scope given by a caller, so a wiring bug fails the ask instead of reaching the wire. */
export function checkScope(scope: unknown): QuestionScope {
  if (typeof scope !== 'object' || scope === null) {
    throw askFailedError(
      scope,
      'the question could not be routed: no editor session is known for the agent that asked it',
    );
  }
  const { sessionId, toolCallId } = scope as { sessionId?: unknown; toolCallId?: unknown };
  if (typeof sessionId !== 'string' || sessionId.length === 0) {
    throw askFailedError(scope, 'the question could not be routed: its scope has no session id');
  }
  if (toolCallId !== undefined && (typeof toolCallId !== 'string' || toolCallId.length === 0)) {
    throw askFailedError(
      scope,
      'the question could not be routed: its scope has an invalid tool call id',
    );
  }
  return toolCallId === undefined ? { sessionId } : { sessionId, toolCallId };
}
