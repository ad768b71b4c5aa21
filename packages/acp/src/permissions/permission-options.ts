import type { PermissionOption } from '@agentclientprotocol/sdk';
import {
  invalidAnswerError,
  offeredChoices,
  type PermissionAnswer,
  type PermissionChoice,
  type PermissionRequest,
} from 'dsh-user-interaction';
import { selectedOptionId } from './selected-option-id.js';

/**
 * The options of an approval, one per choice the request offers, in the order allow once,
 * allow always, reject once, reject always: a client that picks the first allow option by
 * itself (acpx `--approve-all`) allows this call only, and writes no rule. The "always" options
 * are named by the scope of the rule they write ("Always allow `npm test` in this folder"), and
 * each option's id is its choice.
 */
export function permissionOptionsFor(request: PermissionRequest): PermissionOption[] {
  const names: Record<PermissionChoice, string> = {
    allow_once: 'Allow once',
    allow_always: request.allowAlways?.description ?? 'Always allow',
    reject_once: 'Reject',
    reject_always: request.rejectAlways?.description ?? 'Always reject',
  };
  return offeredChoices(request).map(
    (choice): PermissionOption => ({ optionId: choice, name: names[choice], kind: choice }),
  );
}

/**
 * The person's choice from the client's `session/request_permission` reply, as received (read
 * by `selectedOptionId`): the choice of the selected option, whose id is its choice; an option
 * the request did not offer throws `INVALID_ANSWER`. (The service turns
 * each failure into a denial.)
 */
export function choiceFromPermissionReply(
  request: PermissionRequest,
  reply: unknown,
): PermissionAnswer {
  const optionId = selectedOptionId(reply);
  const choice = offeredChoices(request).find((offered) => offered === optionId);
  if (choice === undefined) {
    throw invalidAnswerError('the selected option is not one of the options offered');
  }
  return { choice };
}
