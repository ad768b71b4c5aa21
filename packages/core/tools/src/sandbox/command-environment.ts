import { API_KEY_VARIABLES } from 'dsh-user-interaction/host';

/** Options of `commandEnvironment`: the person's own additions to what is kept back, and passed. */
export interface CommandEnvironmentOptions {
  /** More variables never passed to a command (`--hide-env`), besides the agent's own keys. */
  readonly hide?: readonly string[];
  /** Variables passed all the same, although the agent holds them (`--pass-env`). */
  readonly pass?: readonly string[];
}

/**
 * The variables kept back from every command: the agent's own API keys (`API_KEY_VARIABLES` of
 * `dsh-agent`) and those the person names, less those the person passes on purpose.
 */
export function withheldVariables(options: CommandEnvironmentOptions = {}): ReadonlySet<string> {
  const passed = new Set(options.pass ?? []);
  return new Set(
    [...API_KEY_VARIABLES, ...(options.hide ?? [])].filter((name) => !passed.has(name)),
  );
}

/**
 * The environment a command runs with: the person's, without the withheld variables. Names are
 * compared exactly, as the system does (`deepseek_api_key` is another variable).
 */
export function commandEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  withheld: ReadonlySet<string>,
): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !withheld.has(name)) kept[name] = value;
  }
  return kept;
}
