import {
  type ClientApp,
  type ClientCapabilities,
  type ClientContext,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  client,
  type JsonRpcId,
  methods,
  PROTOCOL_VERSION,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
} from '@agentclientprotocol/sdk';
import { deferred } from 'dsh-agent/testing';
import { AsyncQueue } from './async-queue.js';
import { SessionUpdates } from './session-updates.js';
import { type TappedPipe, tappedPipe } from './tapped-pipe.js';
import type { TestAgent, TurnScript } from './test-agent.js';

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

/** Initializes the connection with `capabilities`. */
export async function initialize(agent: ClientContext, capabilities: ClientCapabilities) {
  await agent.request(methods.agent.initialize, {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: capabilities,
  });
}

/** Opens a session and sends one turn; resolves with the session id and the turn's response. */
export async function startTurn(agent: ClientContext, script: TurnScript) {
  const { sessionId } = await agent.request(methods.agent.session.new, {
    cwd: '/',
    mcpServers: [],
  });
  const response = agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: 'text', text: JSON.stringify(script) }],
  });
  return { sessionId, response };
}

/** Connects the test client to the test agent over a tapped in-memory pipe for the length of `op`. */
export async function withConnection<T>(
  testAgent: TestAgent,
  testClient: TestClient,
  op: (agent: ClientContext, pipe: TappedPipe) => Promise<T>,
): Promise<T> {
  const pipe = tappedPipe();
  const connection = testAgent.app.connect(pipe.agentStream);
  try {
    return await testClient.app.connectWith(pipe.clientStream, (agent) => op(agent, pipe));
  } finally {
    pipe.disconnect();
    connection.close();
  }
}
