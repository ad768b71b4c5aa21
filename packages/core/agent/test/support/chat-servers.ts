import { type ChatReply, startChatServer } from '../../src/testing.js';

const open: { close(): Promise<void> }[] = [];

/** A loopback chat-completions server answering `replies` in order, closed by `closeServers`. */
export async function serve(...replies: ChatReply[]) {
  const server = await startChatServer(replies);
  open.push(server);
  return server;
}

/** Closes `server` with the others at `closeServers`. */
export function closeLater(server: { close(): Promise<void> }): void {
  open.push(server);
}

/** Closes every server started since the last call (for `afterEach`). */
export async function closeServers(): Promise<void> {
  await Promise.all(open.splice(0).map((server) => server.close()));
}

/**
 * The retry event that follows a first request the server at `url` left silent for
 * `timeoutMs`: the second of three attempts, sent at once.
 */
export function retryAfterSilence(url: string, timeoutMs: number) {
  return {
    type: 'retry',
    attempt: 2,
    attempts: 3,
    delayMs: 0,
    error: {
      name: 'ModelError',
      code: 'MODEL_TIMEOUT',
      message: `The model server at ${url} sent nothing for ${timeoutMs} ms.`,
    },
  } as const;
}
