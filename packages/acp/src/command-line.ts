import { parseArgs } from 'node:util';
import { HarnessError, REQUEST_LIMITS } from 'dsh-user-interaction';

/** What the `dsh-acp` command line asks for. */
export type Command =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | {
      readonly kind: 'serve';
      /** `--model`: the model name on an OpenAI-compatible server. */
      readonly model?: string;
      /** `--base-url`: an OpenAI-compatible server. */
      readonly baseUrl?: string;
      /** `--script`: a JSON script to replay offline. */
      readonly script?: string;
      /** `--timeout`: how long a question waits for an answer, in milliseconds. */
      readonly questionTimeoutMs?: number;
    };

/** A command line that cannot be run as written (exit code 2). */
export class UsageError extends HarnessError {
  constructor(message: string) {
    super('USAGE_INVALID', message);
    this.name = 'UsageError';
  }
}

/** The text of `dsh-acp --help`. */
export const HELP_TEXT = `Usage: dsh-acp [options]

Serves the dsh agent to an ACP editor (Zed and others): newline-delimited JSON-RPC on
stdin and stdout, logs on stderr. Start it from the editor's agent settings.

Model (the same rules as dsh-stdio-agent):
  --script FILE      replay a JSON script offline
  --base-url URL     an OpenAI-compatible server (Ollama, vLLM, llama.cpp's server, ...)
  --model NAME       the model on that server, or on DeepSeek (default deepseek-chat)
  Without --script or --base-url, DEEPSEEK_API_KEY (or DSH_API_KEY) selects DeepSeek;
  with no key, the built-in offline demo runs.

Questions:
  --timeout TIME     how long a question waits for an answer: milliseconds (90000),
                     or a number with ms, s, m or h (90s, 1.5m); default: no limit

  -h, --help         show this help
  -V, --version      print the version

Exit status: 0 when the editor disconnects, 1 on a fatal error, 2 on a usage error.
`;

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/;

/** Milliseconds from `90000`, `90s`, `1.5m`…; throws `UsageError` for anything else. */
export function parseDuration(text: string, flag = '--timeout'): number {
  const match = DURATION.exec(text.trim());
  const ms = match ? Math.round(Number(match[1]) * (UNITS[match[2] ?? 'ms'] ?? 1)) : Number.NaN;
  if (!(ms >= 1 && ms <= REQUEST_LIMITS.timeoutMs)) {
    throw new UsageError(
      `${flag} takes a duration from 1ms to 24 days, such as 90000, 90s or 5m (got ${JSON.stringify(text)})`,
    );
  }
  return ms;
}

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
      return new UsageError(message);
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
      },
    }));
  } catch (error) {
    throw usageErrorOf(error);
  }
  if (values.help === true) return { kind: 'help' };
  if (values.version === true) return { kind: 'version' };
  const { model, script, timeout } = values as Record<string, string | undefined>;
  const baseUrl = values['base-url'] as string | undefined;
  return {
    kind: 'serve',
    ...(model !== undefined && { model }),
    ...(baseUrl !== undefined && { baseUrl }),
    ...(script !== undefined && { script }),
    ...(timeout !== undefined && { questionTimeoutMs: parseDuration(timeout) }),
  };
}
