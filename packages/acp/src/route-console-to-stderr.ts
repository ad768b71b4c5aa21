import { Console } from 'node:console';

/**
 * Sends everything the console prints (`console.log` included) to `stderr`, so that nothing
 * but protocol ever reaches stdout, whatever a dependency logs. Returns a function that
 * puts the console back.
 */
export function routeConsoleToStderr(
  target: Console = globalThis.console,
  stderr: NodeJS.WritableStream = process.stderr,
): () => void {
  const replacement = new Console({ stdout: stderr, stderr });
  const console = target as unknown as Record<string, unknown>;
  const saved = new Map<string, unknown>();
  for (const [key, value] of Object.entries(replacement)) {
    if (typeof value !== 'function') continue;
    saved.set(key, console[key]);
    console[key] = value;
  }
  return () => {
    for (const [key, value] of saved) console[key] = value;
  };
}
