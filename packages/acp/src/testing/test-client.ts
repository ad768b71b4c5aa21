import {
  type ClientApp,
  type ClientCapabilities,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  client,
  type JsonRpcId,
  methods,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
} from '@agentclientprotocol/sdk';
import { deferred } from 'dsh-agent/testing';
import { AsyncQueue } from './async-queue.js';
import { SessionUpdates } from './session-updates.js';

/** A request the test client received and holds open until the test replies. */
export interface HeldRequest<Params, Response> {
  readonly params: Params;
  readonly requestId: JsonRpcId;
  /** The SDK aborts it when the agent sends `$/cancel_request` for this request (or the connection closes). */
  readonly signal: AbortSignal;
  reply(response: Response): void;
  fail(error: unknown): void;
}

/** Requests of one method, held for the test to answer. */
export class HeldRequests<Params, Response> {
  readonly queue = new AsyncQueue<HeldRequest<Params, Response>>();

  readonly handler = async (context: {
    params: Params;
    requestId: JsonRpcId;
    signal: AbortSignal;
  }): Promise<Response> => {
    const { promise, resolve, reject } = deferred<Response>();
    this.queue.push({
      params: context.params,
      requestId: context.requestId,
      signal: context.signal,
      reply: resolve,
      fail: reject,
    });
    return await promise;
  };

  next(): Promise<HeldRequest<Params, Response>> {
    return this.queue.next();
  }

  get received(): number {
    return this.queue.all.length;
  }
}

export type HeldElicitations = HeldRequests<CreateElicitationRequest, CreateElicitationResponse>;
export type HeldPermissions = HeldRequests<RequestPermissionRequest, RequestPermissionResponse>;

/** The parts of an editor a test needs: its app, its held requests, the notifications it saw. */
export interface TestClient {
  readonly app: ClientApp;
  readonly forms: HeldElicitations;
  readonly permissions: HeldPermissions;
  /** Every notification the client app received through its `*` fallback, `$/cancel_request` included. */
  readonly notifications: AsyncQueue<{ method: string; params: unknown }>;
  /** Every `session/update`, per session. */
  readonly updates: SessionUpdates;
}

/** A client app that handles forms and permission requests (forms only if `handlesForms`). */
export function createTestClient({ handlesForms = true } = {}): TestClient {
  const forms: HeldElicitations = new HeldRequests();
  const permissions: HeldPermissions = new HeldRequests();
  const notifications = new AsyncQueue<{ method: string; params: unknown }>();
  const updates = new SessionUpdates();
  let app = client({ name: 'dsh-acp-test-client' })
    .onRequest(methods.client.session.requestPermission, permissions.handler)
    .onNotification(methods.client.session.update, updates.handler)
    .onNotification('*', ({ method, params }) => {
      notifications.push({ method, params });
    });
  if (handlesForms) app = app.onRequest(methods.client.elicitation.create, forms.handler);
  return { app, forms, permissions, notifications, updates };
}

/**
 * Answers every permission request the client gets at once, with the option `pick` names
 * (as a client that decides by itself does, such as acpx `--approve-all`); returns a stop.
 */
export function answerEveryPermission(
  testClient: TestClient,
  pick: (options: RequestPermissionRequest['options']) => string,
): () => void {
  let stopped = false;
  void (async () => {
    while (!stopped) {
      const request = await testClient.permissions.next();
      if (stopped) break;
      request.reply({
        outcome: { outcome: 'selected', optionId: pick(request.params.options) },
      });
    }
  })();
  return () => {
    stopped = true;
  };
}

export const WITH_FORMS: ClientCapabilities = { elicitation: { form: {} } };
