import { answerEveryPermission, createTestClient, type TestClient } from '../../src/testing.js';

/**
 * A client without form elicitation that answers every permission request by itself, at once,
 * with its first option, as acpx `--approve-all` does; `stop()` ends the answering.
 */
export function approveAllClient(): { testClient: TestClient; stop: () => void } {
  const testClient = createTestClient({ handlesForms: false });
  const stop = answerEveryPermission(testClient, (options) => options[0]?.optionId ?? '');
  return { testClient, stop };
}
