import type {
  AgentContext,
  ClientRequestMethod,
  ClientRequestParamsByMethod,
} from '@agentclientprotocol/sdk';
import type { OutgoingQuestion } from './outgoing-question.js';
import { checkOutgoingRequestSize } from './outgoing-request-size.js';

/** How the refusal of a request over the message size limit reads (`checkOutgoingRequestSize`). */
export interface OversizeWording {
  /** The request's field named as the one too large, such as `options`. */
  readonly field: string;
  /** What the request would make, such as `a form`. */
  readonly what: string;
  /** What to ask instead, or what happens then. */
  readonly remedy: string;
}

/**
 * A question shown by one request: `method` with `params`, checked against the message size
 * limit now (`INVALID_REQUEST`, nothing sent, for one over it), sent by `show`, whose answer
 * `read` takes from the client's reply.
 */
export function outgoingRequest<Method extends ClientRequestMethod, Answer>(
  client: Pick<AgentContext, 'request'>,
  method: Method,
  params: ClientRequestParamsByMethod[Method],
  oversize: OversizeWording,
  read: (reply: unknown) => Answer,
): OutgoingQuestion<Answer> {
  checkOutgoingRequestSize(method, params, oversize.field, oversize.what, oversize.remedy);
  return {
    show: async (send) => read(await send((options) => client.request(method, params, options))),
  };
}
