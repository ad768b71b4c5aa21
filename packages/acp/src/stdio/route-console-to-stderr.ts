import type { Console } from 'node:console';
import { routeConsole } from 'dsh-user-interaction/text';
import { logText } from './log-text.js';
import { type LogStream, survivingWriteErrors } from './stderr-log.js';

/** Longer than a log line's client text: dependencies' own messages are shown whole. */
const LONGEST_CONSOLE_TEXT = 4_000;

/**
 * Sends everything the console prints (`console.log` included) to `stderr`, so that nothing
 * but protocol ever reaches stdout, whatever a dependency logs. Each call's whole text, once
 * formatted, is shown inert on one line (`logText`, through `routeConsole` of
 * `dsh-user-interaction/text`): a library that logs what a client sent (the SDK logs an unknown
 * response id) cannot put escape sequences or forged lines in the log. A stderr whose reader is
 * gone never crashes the process. Returns a function that puts the console back.
 */
export function routeConsoleToStderr(
  target: Console = globalThis.console,
  stderr: NodeJS.WritableStream = process.stderr,
): () => void {
  survivingWriteErrors(stderr as LogStream);
  return routeConsole(stderr, (text) => logText(text, LONGEST_CONSOLE_TEXT), { target });
}
