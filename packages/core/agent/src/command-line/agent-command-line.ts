import { type ParseArgsConfig, parseArgs } from 'node:util';
import { HarnessError, type PermissionMode, REQUEST_LIMITS } from 'dsh-user-interaction';
import { MAX_RETRIES } from '../models/retry-policy.js';
import { isThinkingLevel, THINKING_LEVELS, type ThinkingLevel } from '../models/thinking.js';

/** A command line that cannot be run as written (programs exit with status 2). */
export class UsageError extends HarnessError<'USAGE_INVALID'> {
  constructor(message: string) {
    super(message, 'USAGE_INVALID');
  }

  static {
    HarnessError.mark(UsageError, 'UsageError', ['USAGE_INVALID']);
  }
}

/** True for a `UsageError` from this or any other copy of the package. */
export function isUsageError(value: unknown): value is UsageError {
  return UsageError.isInstance(value);
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
      /** `--state-dir`: where conversations are saved (default: see `defaultStateDir`). */
      readonly stateDir?: string;
      /** `false` with `--no-history`: conversations are kept in memory only. */
      readonly history: boolean;
      /** `--request-timeout`: how long the model server may stay silent, in milliseconds. */
      readonly requestTimeoutMs?: number;
      /** `--retries`: how many times a failed model request is sent again. */
      readonly maxRetries?: number;
      /** `--allow RULE` (repeatable): rules that allow tool calls, for this run only. */
      readonly allow: readonly string[];
      /** `--deny RULE` (repeatable): rules that deny tool calls, for this run only. */
      readonly deny: readonly string[];
      /** `--permission-mode`: `ask` (default), `read-only` or `allow-sandboxed`. */
      readonly permissionMode?: PermissionMode;
      /** `--sandbox`: whether commands run in the OS sandbox (`auto`, the default; `on`; `off`). */
      readonly sandbox: SandboxChoice;
      /** `--sandbox-hide PATH` (repeatable): more paths no sandboxed command can read or write. */
      readonly sandboxHide: readonly string[];
      /** `--pass-env NAME` (repeatable): variables passed to commands although the agent holds them. */
      readonly passEnv: readonly string[];
      /** `--hide-env NAME` (repeatable): more variables never passed to a command. */
      readonly hideEnv: readonly string[];
      /** `--permissions`: list the rules in force and where they live, then exit. */
      readonly listPermissions: boolean;
      /** The program's own boolean flags that were given (see `booleanFlags`). */
      readonly flags: ReadonlySet<string>;
      /** The program's own flags with a value that were given, by name (see `valueFlags`). */
      readonly values: ReadonlyMap<string, string>;
    };

/** The mode type of `--permission-mode`: `PermissionMode` of `dsh-user-interaction`. */
export type { PermissionMode };

// Keyed by mode, so that a mode added to the type and not here does not compile.
const MODE_NAMES: Readonly<Record<PermissionMode, true>> = {
  ask: true,
  'read-only': true,
  'allow-sandboxed': true,
};

/** The values `--permission-mode` takes. */
export const PERMISSION_MODES = Object.keys(MODE_NAMES) as readonly PermissionMode[];

/** Whether commands run in the OS sandbox: when it can start (`auto`), always (`on`), never (`off`). */
export type SandboxChoice = 'auto' | 'on' | 'off';

/** The values `--sandbox` takes. */
export const SANDBOX_CHOICES: readonly SandboxChoice[] = ['auto', 'on', 'off'];

/** A name a variable can have in the environment of a command. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Options of `parseAgentCommandLine`. */
export interface AgentCommandLineOptions {
  /** Boolean flags of the program beyond the shared ones, such as `no-color`. */
  readonly booleanFlags?: readonly string[];
  /** Flags of the program that take a value, beyond the shared ones, such as `state-dir`. */
  readonly valueFlags?: readonly string[];
}

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
const DURATION = /^(-?)(\d+(?:\.\d+)?)(ms|s|m|h)?$/;

/** Below this, a number without a unit is more likely meant in seconds than in milliseconds. */
const SMALLEST_BARE_MILLISECONDS = 1_000;

/**
 * Milliseconds from `90000`, `90s`, `1.5m`, `250ms`…; throws `UsageError` saying what is wrong
 * for anything else: a duration that is not above zero (`0`, `0s`, `-1s`), under a millisecond,
 * longer than a timer can wait (24 days), a bare number under 1000 (`90` would withdraw every
 * question after 90 ms: write `90s`, or `90ms` if that is meant), or no duration at all.
 */
export function parseDuration(text: string, flag = '--timeout'): number {
  const written = text.trim();
  const match = DURATION.exec(written);
  if (match === null) {
    throw new UsageError(
      `${flag} takes a duration from 1ms to 24 days, such as 90000, 90s or 5m (got ${JSON.stringify(text)})`,
    );
  }
  const [, sign, number, unit] = match as unknown as [string, string, string, string | undefined];
  const amount = Number(number);
  if (sign === '-' && amount !== 0) {
    throw new UsageError(
      `${flag} ${written} is negative: a duration must be above zero, such as 90s or 5m`,
    );
  }
  if (amount === 0) {
    throw new UsageError(
      `${flag} ${written} is zero: a duration must be above zero, such as 90s or 5m`,
    );
  }
  if (unit === undefined && amount < SMALLEST_BARE_MILLISECONDS) {
    throw new UsageError(
      `${flag} ${written} would be ${written} milliseconds: write ${written}s for seconds, or ${written}ms if you mean it`,
    );
  }
  const ms = Math.round(amount * (UNITS[unit ?? 'ms'] ?? 1));
  if (ms < 1) {
    throw new UsageError(`${flag} ${written} is under a millisecond: the shortest duration is 1ms`);
  }
  if (ms > REQUEST_LIMITS.timeoutMs) {
    throw new UsageError(`${flag} ${written} is longer than 24 days, the longest a timer can wait`);
  }
  return ms;
}

/** A whole number of retries from 0 to 10, from `--retries`; throws `UsageError` otherwise. */
function parseRetries(text: string): number {
  const written = text.trim();
  if (!/^\d+$/.test(written) || Number(written) > MAX_RETRIES) {
    throw new UsageError(
      `--retries takes a whole number from 0 to ${MAX_RETRIES} (got ${JSON.stringify(text)})`,
    );
  }
  return Number(written);
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

/** The flags every agent program shares, as Node's `parseArgs` takes them. */
const SHARED_OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
  model: { type: 'string' },
  'base-url': { type: 'string' },
  script: { type: 'string' },
  timeout: { type: 'string' },
  thinking: { type: 'string' },
  'state-dir': { type: 'string' },
  'no-history': { type: 'boolean' },
  'request-timeout': { type: 'string' },
  retries: { type: 'string' },
  allow: { type: 'string', multiple: true },
  deny: { type: 'string', multiple: true },
  'permission-mode': { type: 'string' },
  sandbox: { type: 'string' },
  'sandbox-hide': { type: 'string', multiple: true },
  'pass-env': { type: 'string', multiple: true },
  'hide-env': { type: 'string', multiple: true },
  permissions: { type: 'boolean' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

/**
 * `--timeout -1s` as `--timeout=-1s`: no flag of these programs starts with a digit, so a
 * negative number after a flag that takes a value is that value (Node's parser would otherwise
 * take it for flags, and say the value is missing), and it gets its own message.
 */
function negativeValuesAttached(
  args: readonly string[],
  options: NonNullable<ParseArgsConfig['options']>,
): string[] {
  const valueFlags = new Set(
    Object.entries(options)
      .filter(([, option]) => option.type === 'string')
      .map(([name]) => `--${name}`),
  );
  const attached: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    const next = args[index + 1];
    if (valueFlags.has(arg) && next !== undefined && /^-\d/.test(next)) {
      attached.push(`${arg}=${next}`);
      index++;
    } else {
      attached.push(arg);
    }
  }
  return attached;
}

/**
 * Reads the flags every agent program shares (`--help`, `--version`, `--model`, `--base-url`,
 * `--script`, `--timeout`, `--thinking`, `--request-timeout`, `--retries`, `--state-dir`,
 * `--no-history`) plus the program's own boolean flags, from the arguments after
 * `node` and the script. Throws `UsageError` with a one-line message.
 */
export function parseAgentCommandLine(
  args: readonly string[],
  { booleanFlags = [], valueFlags = [] }: AgentCommandLineOptions = {},
): AgentCommand {
  const options: NonNullable<ParseArgsConfig['options']> = {
    ...Object.fromEntries(booleanFlags.map((flag) => [flag, { type: 'boolean' as const }])),
    ...Object.fromEntries(valueFlags.map((flag) => [flag, { type: 'string' as const }])),
    ...SHARED_OPTIONS,
  };
  let values: Record<string, string | boolean | undefined>;
  let rules: {
    allow?: string[];
    deny?: string[];
    'sandbox-hide'?: string[];
    'pass-env'?: string[];
    'hide-env'?: string[];
  };
  try {
    // Only the lists in `rules` are `multiple`: every other value is a string or a boolean.
    const parsed = parseArgs({
      args: negativeValuesAttached(args, options),
      strict: true,
      allowPositionals: false,
      options,
    }).values as Record<string, string | boolean | string[] | undefined>;
    rules = parsed as { allow?: string[]; deny?: string[] };
    values = parsed as Record<string, string | boolean | undefined>;
  } catch (error) {
    throw usageErrorOf(error);
  }
  if (values.help === true) return { kind: 'help' };
  if (values.version === true) return { kind: 'version' };
  const { model, script, timeout, thinking } = values as Record<string, string | undefined>;
  const baseUrl = values['base-url'] as string | undefined;
  const stateDir = values['state-dir'] as string | undefined;
  const history = values['no-history'] !== true;
  for (const [flag, value] of [
    ['--model', model],
    ['--base-url', baseUrl],
    ['--script', script],
    ['--state-dir', stateDir],
  ] as const) {
    // `--model=` would otherwise silently fall back to the demo.
    if (value !== undefined && value.trim() === '') throw new UsageError(`${flag} needs a value`);
  }
  if (stateDir !== undefined && !history) {
    throw new UsageError('--state-dir and --no-history cannot be used together');
  }
  if (thinking !== undefined && !isThinkingLevel(thinking)) {
    throw new UsageError(
      `--thinking takes ${THINKING_LEVELS.join(', ')} (got ${JSON.stringify(thinking)})`,
    );
  }
  for (const [flag, list] of [
    ['--allow', rules.allow],
    ['--deny', rules.deny],
  ] as const) {
    if (list?.some((rule) => rule.trim() === '')) throw new UsageError(`${flag} needs a rule`);
  }
  const permissionMode = values['permission-mode'] as string | undefined;
  if (
    permissionMode !== undefined &&
    !PERMISSION_MODES.includes(permissionMode as PermissionMode)
  ) {
    throw new UsageError(
      `--permission-mode takes ${PERMISSION_MODES.slice(0, -1).join(', ')} or ${PERMISSION_MODES.at(-1)} (got ${JSON.stringify(permissionMode)})`,
    );
  }
  const sandbox = (values.sandbox as string | undefined) ?? 'auto';
  if (!SANDBOX_CHOICES.includes(sandbox as SandboxChoice)) {
    throw new UsageError(
      `--sandbox takes ${SANDBOX_CHOICES.join(', ')} (got ${JSON.stringify(sandbox)})`,
    );
  }
  if (rules['sandbox-hide']?.some((path) => path.trim() === '')) {
    throw new UsageError('--sandbox-hide needs a path');
  }
  for (const flag of ['pass-env', 'hide-env'] as const) {
    const bad = rules[flag]?.find((name) => !VARIABLE_NAME.test(name));
    if (bad !== undefined) {
      throw new UsageError(
        `--${flag} takes a variable name, such as GITHUB_TOKEN (got ${JSON.stringify(bad)})`,
      );
    }
  }
  const requestTimeout = values['request-timeout'] as string | undefined;
  const retries = values.retries as string | undefined;
  return {
    kind: 'run',
    ...(model !== undefined && { model }),
    ...(baseUrl !== undefined && { baseUrl }),
    ...(script !== undefined && { script }),
    ...(timeout !== undefined && { questionTimeoutMs: parseDuration(timeout) }),
    ...(thinking !== undefined && { thinking }),
    ...(stateDir !== undefined && { stateDir }),
    history,
    ...(requestTimeout !== undefined && {
      requestTimeoutMs: parseDuration(requestTimeout, '--request-timeout'),
    }),
    ...(retries !== undefined && { maxRetries: parseRetries(retries) }),
    allow: Object.freeze([...(rules.allow ?? [])]),
    deny: Object.freeze([...(rules.deny ?? [])]),
    ...(permissionMode !== undefined && { permissionMode: permissionMode as PermissionMode }),
    listPermissions: values.permissions === true,
    sandbox: sandbox as SandboxChoice,
    sandboxHide: Object.freeze([...(rules['sandbox-hide'] ?? [])]),
    passEnv: Object.freeze([...(rules['pass-env'] ?? [])]),
    hideEnv: Object.freeze([...(rules['hide-env'] ?? [])]),
    flags: new Set(booleanFlags.filter((flag) => values[flag] === true)),
    values: new Map(
      valueFlags.flatMap((flag) => {
        const value = values[flag];
        return typeof value === 'string' ? [[flag, value] as const] : [];
      }),
    ),
  };
}
