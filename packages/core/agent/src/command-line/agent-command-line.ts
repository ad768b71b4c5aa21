import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { PermissionMode } from 'dsh-user-interaction';
import { isThinkingLevel, THINKING_LEVELS, type ThinkingLevel } from '../models/thinking.js';
import { parseDuration, parseRetries } from './durations.js';
import { isUsageError, UsageError, usageErrorOf } from './usage-error.js';

// Read by the programs and their tests from here, where the command line is read.
export { isUsageError, parseDuration, UsageError };

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
