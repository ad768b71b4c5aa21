import type { SendRequestOptions } from '@agentclientprotocol/sdk';
import type { PendingQuestion, UserInteractionError } from 'dsh-user-interaction';
import { errorFromClient } from './client-error.js';

/** Sends one request to the client, with the options that withdraw it. */
export type SendQuestion = (options: SendRequestOptions) => Promise<unknown>;

/** Waits for the client's reply to one request; withdrawing the question withdraws the request. */
export type SendWithdrawable = (send: SendQuestion) => Promise<unknown>;

/** A JSON-RPC error reply as the matching `UserInteractionError`; one function for every request. */
function fromClient(error: unknown): never {
  throw errorFromClient(error);
}

/**
 * The request of one question on the wire, if one is out: the question's `onWithdraw`
 * withdraws it. One controller per request, and no listener on the question's own signal
 * (reading that signal would make a second controller per question).
 */
export class WireRequest {
  readonly #connection: AbortSignal;
  #controller: AbortController | undefined;

  /** `connection` aborts when the connection closes: nothing is withdrawn on the wire then. */
  constructor(connection: AbortSignal) {
    this.#connection = connection;
  }

  /** The question was withdrawn: `$/cancel_request` for its request, unless the connection is gone. */
  readonly withdraw = (error: UserInteractionError): void => {
    if (!this.#connection.aborted) this.#controller?.abort(error);
  };

  /**
   * Sends one request of `question` and waits for the client's reply; withdrawing the question
   * sends `$/cancel_request` (the SDK then drops the client's late reply). A JSON-RPC error
   * reply becomes the matching `UserInteractionError`.
   */
  send(question: PendingQuestion<unknown>, send: SendQuestion): Promise<unknown> {
    // Nothing more is sent for a question that has already ended (withdrawn between two requests).
    if (question.settled) return Promise.reject(question.signal.reason);
    const controller = new AbortController();
    this.#controller = controller;
    let reply: Promise<unknown>;
    try {
      reply = send({ cancellationSignal: controller.signal, stopWaitingOnCancel: true });
    } catch (error) {
      reply = Promise.reject(error);
    }
    return reply.catch(fromClient);
  }
}
