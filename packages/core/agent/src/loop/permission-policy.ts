// The types live in the contract (`dsh-user-interaction/agent-tool`), so that a policy
// (`dsh-tools`) implements them without depending on the loop.
import type { PermissionPolicy, PermissionVerdict } from 'dsh-user-interaction/agent-tool';

export type {
  PermissionCheck,
  PermissionPolicy,
  PermissionVerdict,
} from 'dsh-user-interaction/agent-tool';

/** The policy of an agent that was given none: every described call asks, nothing is remembered. */
export const ASK_EVERY_CALL: PermissionPolicy = Object.freeze({
  decide: (): PermissionVerdict => ({ decision: 'ask' }),
});
