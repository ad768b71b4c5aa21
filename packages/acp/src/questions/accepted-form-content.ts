import { askCancelledError, askDeclinedError, invalidAnswerError } from 'dsh-user-interaction';
import { isRecord } from './is-record.js';

/**
 * The content of the client's `elicitation/create` reply, as received, when the person accepted
 * the form: `decline` throws `ASK_DECLINED`, `cancel` throws `ASK_CANCELLED`, and a reply that is
 * not an object, has no known action, or whose content is not an object or has a field the form
 * does not have (`isField` says which it has) throws `INVALID_ANSWER`.
 */
export function acceptedFormContent(
  response: unknown,
  isField: (key: string) => boolean,
): Record<string, unknown> {
  if (!isRecord(response)) throw invalidAnswerError('the reply is not an object');
  switch (response.action) {
    case 'accept':
      break;
    case 'decline':
      throw askDeclinedError();
    case 'cancel':
      throw askCancelledError();
    default:
      throw invalidAnswerError('the reply has no known action (accept, decline or cancel)');
  }
  // ACP lets an accept carry no content; that is an empty form, checked like any other.
  const { content } = response;
  const fields = content === undefined || content === null ? {} : content;
  if (!isRecord(fields)) throw invalidAnswerError('the form content is not an object');
  for (const key of Object.keys(fields)) {
    if (!isField(key))
      throw invalidAnswerError('the form content has a field the form does not have');
  }
  return fields;
}
