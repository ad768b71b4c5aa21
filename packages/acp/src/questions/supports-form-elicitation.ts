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

const WITHOUT_FORMS: UserInteractionCapabilities = Object.freeze({
  freeForm: false,
  customAnswer: false,
});

/** What questions a client can show: everything with forms, only options without them. */
export function questionCapabilitiesFor(
  clientCapabilities: ClientCapabilities | null | undefined,
): UserInteractionCapabilities {
  return supportsFormElicitation(clientCapabilities) ? FULL_CAPABILITIES : WITHOUT_FORMS;
}
