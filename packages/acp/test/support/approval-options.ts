import type { PermissionOption } from '@agentclientprotocol/sdk';
import { PERMISSION_CHOICES } from 'dsh-user-interaction';

const NAMES = {
  allow_once: 'Allow once',
  allow_always: 'Always allow',
  reject_once: 'Reject',
  reject_always: 'Always reject',
} as const;

/**
 * The four options of an approval as the client receives them, in order: "once" first, the
 * "always" ones named by what their rule covers (`scope`, such as "`edit_file`").
 */
export function approvalOptions(scope: string): PermissionOption[] {
  return PERMISSION_CHOICES.map((kind) => ({
    optionId: kind,
    name: kind.endsWith('_always') ? `${NAMES[kind]} ${scope} in this folder` : NAMES[kind],
    kind,
  }));
}
