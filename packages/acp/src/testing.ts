// `dsh-acp/testing`: an editor in memory, for testing an ACP agent (this one, or yours) with the
// SDK's own client: a recording in-memory pipe, a client that holds the forms and permission
// requests it gets until the test answers them, and the dsh-acp server served over the pipe.
export { AsyncQueue } from './testing/async-queue.js';
export {
  initializeClient,
  newSession,
  prompt,
  type ServerTestContext,
  startSession,
  withServer,
} from './testing/in-memory-server.js';
export { SessionUpdates } from './testing/session-updates.js';
export {
  cancelRequest,
  type TappedPipe,
  tappedPipe,
  Wire,
  type WireMessage,
} from './testing/tapped-pipe.js';
export {
  answerEveryPermission,
  createTestClient,
  type HeldElicitations,
  type HeldPermissions,
  type HeldRequest,
  HeldRequests,
  type TestClient,
  WITH_FORMS,
} from './testing/test-client.js';
