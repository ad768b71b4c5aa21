import { parseArgs } from 'node:util';
import { parseDuration } from './parse-duration.js';
import { UsageError } from './usage-error.js';

/** What the `dsh-stdio-agent` command line asks for. */
export type Command =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | {
      readonly kind: 'chat';
      /** `--model`: the model name on an OpenAI-compatible server. */
      readonly model?: string;
      /** `--base-url`: an OpenAI-compatible server. */
      readonly baseUrl?: string;
      /** `--script`: a JSON script to replay offline. */
      readonly script?: string;
      /** `--timeout`: how long a question waits for an answer, in milliseconds. */
      readonly questionTimeoutMs?: number;
      /** `--no-color`: `false`; otherwise colours follow the terminal and the environment. */
      readonly color?: false;
    };

function quoted(message: string): string {
  return /'([^']*)'/.exec(message)?.[1] ?? '';
}

/** The long name in Node's quoting of an option (`'-h, --help'`, `'--model <value>'`). */
function optionName(message: string): string {
  const words = quoted(message).split(/[\s,]+/);
  return words.find((word) => word.startsWith('--')) ?? words[0] ?? '';
}

function usageErrorOf(error: unknown): UsageError {
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

/** Reads the command line (without `node` and the script); throws `UsageError`. */
export function parseCommandLine(args: readonly string[]): Command {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'V' },
        model: { type: 'string' },
        'base-url': { type: 'string' },
        script: { type: 'string' },
        timeout: { type: 'string' },
        'no-color': { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw usageErrorOf(error);
  }
  if (values.help === true) return { kind: 'help' };
  if (values.version === true) return { kind: 'version' };
  const { model, script, timeout } = values as Record<string, string | undefined>;
  const baseUrl = values['base-url'] as string | undefined;
  for (const [flag, value] of [
    ['--model', model],
    ['--base-url', baseUrl],
    ['--script', script],
  ] as const) {
    // `--model=` would otherwise silently fall back to the demo.
    if (value !== undefined && value.trim() === '') throw new UsageError(`${flag} needs a value`);
  }
  return {
    kind: 'chat',
    ...(model !== undefined && { model }),
    ...(baseUrl !== undefined && { baseUrl }),
    ...(script !== undefined && { script }),
    ...(timeout !== undefined && { questionTimeoutMs: parseDuration(timeout) }),
    ...(values['no-color'] === true && { color: false as const }),
  };
}
