import { askCancelledError, invalidAnswerError } from 'dsh-user-interaction';
import { isRecord } from '../questions/is-record.js';

/** The fields of a reply that matter, each read once; `undefined` for a reply with no outcome. */
function readOutcome(reply: unknown): { kind: unknown; optionId: unknown } | undefined {
  const outcome = isRecord(reply) ? reply.outcome : undefined;
  if (!isRecord(outcome)) return undefined;
  const kind = outcome.outcome;
  return { kind, optionId: kind === 'selected' ? outcome.optionId : undefined };
}

/**
 * The `optionId` the person selected, from the client's `session/request_permission` reply as
 * received: `cancelled` throws `ASK_CANCELLED`; any other shape, an id that is not text, or a
 * reply that throws when read (a getter, a Proxy) throws `INVALID_ANSWER`. Each field is read
 * once, so a getter cannot answer one check one way and the next another. Whether the id names
 * an option that was offered is for the caller, which knows the options.
 */
export function selectedOptionId(reply: unknown): string {
  let read: ReturnType<typeof readOutcome>;
  try {
    read = readOutcome(reply);
  } catch {
    // What a hostile reply throws is its own: it never reaches the caller.
    throw invalidAnswerError('the reply cannot be read');
  }
  if (read === undefined) throw invalidAnswerError('the reply has no outcome');
  if (read.kind === 'cancelled') throw askCancelledError();
  if (read.kind !== 'selected') {
    throw invalidAnswerError('the outcome is neither selected nor cancelled');
  }
  if (typeof read.optionId !== 'string') throw invalidAnswerError('the selected option has no id');
  return read.optionId;
}
