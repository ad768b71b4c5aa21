import type { SendRequestOptions } from '@agentclientprotocol/sdk';
import type { PendingQuestion } from 'dsh-user-interaction';
import { errorFromClient } from './client-error.js';

/** Sends one request to the client, with the options that withdraw it. */
export type SendQuestion = (options: SendRequestOptions) => Promise<unknown>;

/** Waits for the client's reply to one request; withdrawing the question withdraws the request. */
export type SendWithdrawable = (send: SendQuestion) => Promise<unknown>;

/**
 * Sends one request of `question` and waits for the client's reply; withdrawing the question
 * sends `$/cancel_request`, unless the connection (`connection`, aborted when it closes) is gone.
 * A JSON-RPC error reply becomes the matching `UserInteractionError`.
 */
export function sendWithdrawable(
  question: PendingQuestion<unknown>,
  connection: AbortSignal,
  send: SendQuestion,
): Promise<unknown> {
  // Nothing more is sent for a question that has already ended (withdrawn between two requests).
  if (question.settled) return Promise.reject(question.signal.reason);
  // The SDK drops the client's late reply once this aborts.
  const wire = new AbortController();
  const onWithdrawn = (): void => {
    if (!connection.aborted) wire.abort(question.signal.reason);
  };
  question.signal.addEventListener('abort', onWithdrawn, { once: true });
  let reply: Promise<unknown>;
  try {
    reply = send({ cancellationSignal: wire.signal, stopWaitingOnCancel: true });
  } catch (error) {
    reply = Promise.reject(error);
  }
  return reply.then(
    (value) => {
      question.signal.removeEventListener('abort', onWithdrawn);
      return value;
    },
    (error: unknown) => {
      question.signal.removeEventListener('abort', onWithdrawn);
      throw errorFromClient(error);
    },
  );
}
