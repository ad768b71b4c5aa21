import { parseArgs } from 'node:util';
import { HarnessError, REQUEST_LIMITS } from 'dsh-user-interaction';
import { isThinkingLevel, THINKING_LEVELS, type ThinkingLevel } from './thinking.js';

/** A command line that cannot be run as written (programs exit with status 2). */
export class UsageError extends HarnessError {
  constructor(message: string) {
    super('USAGE_INVALID', message);
    this.name = 'UsageError';
  }
}

/** The flags every agent program takes, and what they ask for. */
export type AgentCommand =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | {
      readonly kind: 'run';
      /** `--model`: the model name on an OpenAI-compatible server. */
      readonly model?: string;
      /** `--base-url`: an OpenAI-compatible server. */
      readonly baseUrl?: string;
      /** `--script`: a JSON script to replay offline. */
      readonly script?: string;
      /** `--timeout`: how long a question waits for an answer, in milliseconds. */
      readonly questionTimeoutMs?: number;
      /** `--thinking`: how much a thinking model reasons (`off`, `low`, `high`, `max`). */
      readonly thinking?: ThinkingLevel;
      /** The program's own boolean flags that were given (see `booleanFlags`). */
      readonly flags: ReadonlySet<string>;
    };

/** Options of `parseAgentCommandLine`. */
export interface AgentCommandLineOptions {
  /** Boolean flags of the program beyond the shared ones, such as `no-color`. */
  readonly booleanFlags?: readonly string[];
}

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/;

/** Below this, a number without a unit is more likely meant in seconds than in milliseconds. */
const SMALLEST_BARE_MILLISECONDS = 1_000;

/**
 * Milliseconds from `90000`, `90s`, `1.5m`, `250ms`…; throws `UsageError` for anything else,
 * and for a bare number under 1000 (`90` would withdraw every question after 90 ms: write
 * `90s`, or `90ms` if that is meant).
 */
export function parseDuration(text: string, flag = '--timeout'): number {
  const match = DURATION.exec(text.trim());
  if (match !== null && match[2] === undefined && Number(match[1]) < SMALLEST_BARE_MILLISECONDS) {
    const value = match[1] as string;
    throw new UsageError(
      `${flag} ${value} would be ${value} milliseconds: write ${value}s for seconds, or ${value}ms if you mean it`,
    );
  }
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

/** Node's parse errors as one short line a person can act on. */
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

/**
 * Reads the flags every agent program shares (`--help`, `--version`, `--model`, `--base-url`,
 * `--script`, `--timeout`, `--thinking`) plus the program's own boolean flags, from the arguments after
 * `node` and the script. Throws `UsageError` with a one-line message.
 */
export function parseAgentCommandLine(
  args: readonly string[],
  { booleanFlags = [] }: AgentCommandLineOptions = {},
): AgentCommand {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        ...Object.fromEntries(booleanFlags.map((flag) => [flag, { type: 'boolean' as const }])),
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'V' },
        model: { type: 'string' },
        'base-url': { type: 'string' },
        script: { type: 'string' },
        timeout: { type: 'string' },
        thinking: { type: 'string' },
      },
    }));
  } catch (error) {
    throw usageErrorOf(error);
  }
  if (values.help === true) return { kind: 'help' };
  if (values.version === true) return { kind: 'version' };
  const { model, script, timeout, thinking } = values as Record<string, string | undefined>;
  const baseUrl = values['base-url'] as string | undefined;
  for (const [flag, value] of [
    ['--model', model],
    ['--base-url', baseUrl],
    ['--script', script],
  ] as const) {
    // `--model=` would otherwise silently fall back to the demo.
    if (value !== undefined && value.trim() === '') throw new UsageError(`${flag} needs a value`);
  }
  if (thinking !== undefined && !isThinkingLevel(thinking)) {
    throw new UsageError(
      `--thinking takes ${THINKING_LEVELS.join(', ')} (got ${JSON.stringify(thinking)})`,
    );
  }
  return {
    kind: 'run',
    ...(model !== undefined && { model }),
    ...(baseUrl !== undefined && { baseUrl }),
    ...(script !== undefined && { script }),
    ...(timeout !== undefined && { questionTimeoutMs: parseDuration(timeout) }),
    ...(thinking !== undefined && { thinking }),
    flags: new Set(booleanFlags.filter((flag) => values[flag] === true)),
  };
}
