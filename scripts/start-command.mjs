// How `pnpm start` was typed, and what it passes on: kept apart from start.mjs so that tests
// can read them without starting anything.

/** The flags for the program: pnpm passes a `--` on to the script (`pnpm start -- --help`). */
export function programArguments(args) {
  return args[0] === '--' ? args.slice(1) : [...args];
}

/**
 * How the person started this script, as the command that flags follow (`DSH_COMMAND` of
 * dsh-agent): `pnpm start --` (or npm's, yarn's…) when a package manager ran the start
 * script, else `node scripts/start.mjs`.
 */
export function startedAs(env) {
  if (env.npm_lifecycle_event !== 'start') return 'node scripts/start.mjs';
  const client = /^([\w-]+)\//.exec(env.npm_config_user_agent ?? '')?.[1] ?? 'pnpm';
  return `${client} start --`;
}

/** The pnpm that ran this script (to run the builds with), as `{ command, args }`. */
export function packageManager(env, node = process.execPath) {
  const path = env.npm_execpath;
  if (path === undefined || !/pnpm/.test(path)) return { command: 'pnpm', args: [] };
  // An older pnpm is a script for node; pnpm 12 is a program of its own.
  return /\.[cm]?js$/.test(path) ? { command: node, args: [path] } : { command: path, args: [] };
}

/**
 * Whether the agent may run in this script's own process: when nothing that started it passes
 * a Ctrl+C's SIGINT on as well as the terminal (run with node directly, or by pnpm 12, a
 * program that leaves SIGINT to its script). npm, yarn and a pnpm written for Node forward it,
 * and the agent would take one Ctrl+C for two.
 */
export function agentInProcess(env) {
  if (env.npm_lifecycle_event === undefined) return true;
  const path = env.npm_execpath;
  const client = /^([\w-]+)\//.exec(env.npm_config_user_agent ?? '')?.[1];
  return client === 'pnpm' && path !== undefined && /pnpm/.test(path) && !/\.[cm]?js$/.test(path);
}
