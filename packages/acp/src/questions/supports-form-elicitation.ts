import type { ClientCapabilities } from '@agentclientprotocol/sdk';
import { FULL_CAPABILITIES, type UserInteractionCapabilities } from 'dsh-user-interaction';

/**
 * True when the client advertised form elicitation at `initialize`:
 * `clientCapabilities.elicitation.form` is present and an object (`{}` counts). Absent,
 * `null`, or any other value means no forms.
 */
export function supportsFormElicitation(
  clientCapabilities: ClientCapabilities | null | undefined,
): boolean {
  const form: unknown = clientCapabilities?.elicitation?.form;
  return typeof form === 'object' && form !== null && !Array.isArray(form);
}

const AS_PERMISSIONS: UserInteractionCapabilities = Object.freeze({
  freeForm: false,
  customAnswer: false,
});

const WITHOUT_QUESTIONS: UserInteractionCapabilities = Object.freeze({
  freeForm: false,
  customAnswer: false,
  questions: false,
});

/**
 * What questions a client can show: everything with forms; without them none (the model asks
 * in its reply), or only options with `questionsAsPermissions`.
 */
export function questionCapabilitiesFor(
  clientCapabilities: ClientCapabilities | null | undefined,
  { questionsAsPermissions = false }: { readonly questionsAsPermissions?: boolean } = {},
): UserInteractionCapabilities {
  if (supportsFormElicitation(clientCapabilities)) return FULL_CAPABILITIES;
  return questionsAsPermissions ? AS_PERMISSIONS : WITHOUT_QUESTIONS;
}
