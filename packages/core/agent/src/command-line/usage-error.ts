import { HarnessError } from 'dsh-user-interaction';

/** A command line that cannot be run as written (programs exit with status 2). */
export class UsageError extends HarnessError<'USAGE_INVALID'> {
  constructor(message: string) {
    super(message, 'USAGE_INVALID');
  }
}

/** True for a `UsageError` from this or any other copy of the package. */
export const isUsageError = HarnessError.define(UsageError, 'UsageError', ['USAGE_INVALID']);

function quoted(message: string): string {
  return /'([^']*)'/.exec(message)?.[1] ?? '';
}

/** The long name in Node's quoting of an option (`'-h, --help'`, `'--model <value>'`). */
function optionName(message: string): string {
  const words = quoted(message).split(/[\s,]+/);
  return words.find((word) => word.startsWith('--')) ?? words[0] ?? '';
}

/** Node's parse errors as one short line a person can act on. */
export function usageErrorOf(error: unknown): UsageError {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return new UsageError(`unknown option ${quoted(message)}`);
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return new UsageError(
        message.includes('does not take an argument')
          ? `${optionName(message)} takes no value`
          : `${optionName(message)} needs a value`,
      );
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return new UsageError(`unexpected argument ${JSON.stringify(quoted(message))}`);
    default:
      return new UsageError(message.split('\n')[0] ?? message);
  }
}
