import { startDeepSeekStandIn } from 'dsh-agent/testing';

// The DeepSeek stand-ins a test file starts; the file closes them after each test
// (`closeStandIns` in its afterEach: a support module registers no hook of its own).
const standIns: { close(): Promise<void> }[] = [];

/** Starts a DeepSeek stand-in that `closeStandIns` closes. */
export async function standIn(options: Parameters<typeof startDeepSeekStandIn>[0] = {}) {
  const server = await startDeepSeekStandIn(options);
  standIns.push(server);
  return server;
}

/** Closes every stand-in started since the last call. */
export async function closeStandIns(): Promise<void> {
  await Promise.all(standIns.splice(0).map((server) => server.close()));
}

/** The flags of a run against the stand-in at `url`. */
export function standInFlags(url: string, ...more: string[]): string[] {
  return ['--base-url', url, '--model', 'deepseek-flash', ...more];
}
