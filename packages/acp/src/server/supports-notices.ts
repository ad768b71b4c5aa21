import type { ClientCapabilities } from '@agentclientprotocol/sdk';

/**
 * True when the client advertised live notices at `initialize`:
 * `clientCapabilities.session.notices` is present and an object (`{}` counts). Absent,
 * `null`, or any other value means none may be sent.
 */
export function supportsNotices(
  clientCapabilities: ClientCapabilities | null | undefined,
): boolean {
  const notices: unknown = clientCapabilities?.session?.notices;
  return typeof notices === 'object' && notices !== null && !Array.isArray(notices);
}
