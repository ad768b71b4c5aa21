import type { CONVERSATION_ENTRY } from '../session/conversation-entry-shape.js';
import type { ShapeType } from '../session/shape/shape.js';

/**
 * One event of a conversation, in the order it happened: what a session store writes as the
 * conversation goes, and what an agent restored from it is given back. Declared once, as the
 * shape `CONVERSATION_ENTRY`, which also reads and checks it.
 */
export type ConversationEntry = ShapeType<typeof CONVERSATION_ENTRY>;

/** Where an agent records its conversation as it happens (a session store's writer). */
export interface ConversationRecorder {
  /** Takes the next entry, in order. Never throws: a failure is reported by `flush`. */
  add(entry: ConversationEntry): void;
  /**
   * Resolves once every entry added so far is durably stored (a store may leave the end of a
   * finished turn to be made durable later: a turn found without it goes on from its last
   * answer, or is closed, on load); rejects when one cannot be.
   */
  flush(): Promise<void>;
  /**
   * Optional: resolves once every entry added so far has reached the system (written, not
   * necessarily durable), for a recorder that may hold entries back for a moment (a store still
   * making a new session's file). The agent waits for it before it asks the model about a
   * prompt and before a question is shown, so that a prompt acted on and a question on screen
   * are always in the file. `undefined` when nothing is held back.
   */
  written?(): Promise<void> | undefined;
}
