import { Console } from 'node:console';
import { logText } from './log-text.js';
import { type LogStream, survivingWriteErrors } from './stderr-log.js';

/** Longer than a log line's client text: dependencies' own messages are shown whole. */
const LONGEST_CONSOLE_TEXT = 4_000;

/**
 * Sends everything the console prints (`console.log` included) to `stderr`, so that nothing
 * but protocol ever reaches stdout, whatever a dependency logs. String arguments are shown
 * inert (`logText`): a library that logs what a client sent (the SDK logs an unknown response
 * id) cannot put escape sequences or forged lines in the log. A stderr whose reader is gone
 * never crashes the process. Returns a function that puts the console back.
 */
export function routeConsoleToStderr(
  target: Console = globalThis.console,
  stderr: NodeJS.WritableStream = process.stderr,
): () => void {
  survivingWriteErrors(stderr as LogStream);
  const replacement = new Console({ stdout: stderr, stderr });
  const console = target as unknown as Record<string, unknown>;
  const saved = new Map<string, unknown>();
  for (const [key, value] of Object.entries(replacement)) {
    if (typeof value !== 'function') continue;
    saved.set(key, console[key]);
    console[key] = (...args: unknown[]) =>
      value.apply(
        replacement,
        args.map((arg) => (typeof arg === 'string' ? logText(arg, LONGEST_CONSOLE_TEXT) : arg)),
      );
  }
  return () => {
    for (const [key, value] of saved) console[key] = value;
  };
}
