/** A failure as the log shows it: its stack when it has one. Never sent to the client. */
export function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
