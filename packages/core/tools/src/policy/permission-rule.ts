import { loadPicomatch } from '../cjs-dependencies.js';
import { WorkspaceToolError } from '../tool-error.js';
import { commandName } from './command-parts.js';

/** The tool whose rules are command prefixes; every other tool's rules are path globs. */
export const COMMAND_TOOL = 'run_command';

/** A rule as read: `TOOL`, or `TOOL:PATTERN`. */
export interface PermissionRule {
  /** The rule as written (and as a rules file holds it). */
  readonly text: string;
  readonly tool: string;
  /** For `run_command`: the command prefix, in words. */
  readonly prefix?: readonly string[];
  /** For a file tool: the path glob, relative to the workspace. */
  readonly glob?: string;
  /** Whether a path (relative to the workspace, `/`-separated) matches the glob. */
  matchesPath?(path: string): boolean;
}

const TOOL = /^[A-Za-z0-9_-]{1,64}$/;

/** Reads a rule; throws `RULE_INVALID` saying what a rule looks like. */
export function parseRule(text: unknown): PermissionRule {
  const fail = (why: string): never => {
    throw new WorkspaceToolError(
      `The rule ${JSON.stringify(String(text).slice(0, 200))} ${why}: a rule is TOOL or TOOL:PATTERN, such as run_command:npm test or write_file:docs/**.`,
      'RULE_INVALID',
    );
  };
  if (typeof text !== 'string' || text.trim() === '') return fail('is empty');
  const written = text.trim();
  const colon = written.indexOf(':');
  const tool = colon === -1 ? written : written.slice(0, colon);
  if (!TOOL.test(tool)) return fail('does not start with a tool name');
  if (colon === -1) return Object.freeze({ text: written, tool });
  const pattern = written.slice(colon + 1).trim();
  if (pattern === '') return fail('has nothing after its colon');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a rule must not carry them.
  if (/[\u0000-\u001f\u007f]/.test(pattern)) return fail('holds a control character');
  if (tool === COMMAND_TOOL) {
    const prefix = pattern.split(/\s+/);
    return Object.freeze({
      text: `${tool}:${prefix.join(' ')}`,
      tool,
      prefix: Object.freeze(prefix),
    });
  }
  if (pattern.startsWith('/') || pattern.split('/').includes('..')) {
    return fail('has a glob that leaves the workspace (globs are relative to it)');
  }
  const matcher = loadPicomatch()(pattern, { dot: true });
  return Object.freeze({
    text: `${tool}:${pattern}`,
    tool,
    glob: pattern,
    matchesPath: (path: string) => matcher(path),
  });
}

/**
 * Whether a command rule's prefix covers a command's words: word by word, the first compared
 * by the name the command is known by. For a deny rule, a path that ends in the name is the
 * same command (`./rm` is denied like `rm`); for an allow rule, it is not.
 */
export function prefixMatches(
  prefix: readonly string[],
  words: readonly (string | null)[],
  effect: 'allow' | 'deny',
): boolean {
  // Indexes, not copies: this runs for every part of a command against every rule.
  const first = words[0];
  const wantedName = prefix[0];
  if (first === null || first === undefined || wantedName === undefined) return false;
  const name = commandName(first);
  const base = first.slice(first.lastIndexOf('/') + 1);
  if (name !== wantedName && !(effect === 'deny' && base === wantedName)) return false;
  if (effect === 'allow') {
    // Allowed word by word, exactly: `npm test` does not allow `npm -g test`.
    if (words.length < prefix.length) return false;
    for (let index = 1; index < prefix.length; index++) {
      if (words[index] !== prefix[index]) return false;
    }
    return true;
  }
  // A deny rule's words may have options between them (`git -C x push` is `git push`), and a
  // word known only at run time might be any of them.
  let next = 1;
  for (let index = 1; index < words.length && next < prefix.length; index++) {
    const word = words[index];
    if (word === null || word === prefix[next]) next++;
  }
  return next === prefix.length;
}

/**
 * How many words name a command, for the prefix "always" remembers: `git commit`, `npm test`,
 * `npm run build`, `docker compose up`; options are never part of it.
 */
const ARITY: Readonly<Record<string, number>> = {
  git: 2,
  npm: 2,
  pnpm: 2,
  yarn: 2,
  bun: 2,
  npx: 2,
  cargo: 2,
  go: 2,
  docker: 2,
  podman: 2,
  kubectl: 2,
  make: 2,
  pip: 2,
  pip3: 2,
  uv: 2,
  poetry: 2,
  dotnet: 2,
  mvn: 2,
  gradle: 2,
  brew: 2,
  apt: 2,
  'apt-get': 2,
  gh: 3,
  deno: 2,
  // Runners of a package's binary: the binary is the command (`bunx tsc`, as `npx tsc`).
  bunx: 2,
  pnpx: 2,
  uvx: 2,
  pipx: 2,
  // Interpreters: the script is the command (`node build.js`, `python3 -m pytest`). Alone, the
  // interpreter would allow every program it can run (`node -e …`, `python3 -c …`, `bash x.sh`);
  // an option where the script should be (`node -e`, `python3 -`) offers no "always".
  python: 2,
  python3: 2,
  node: 2,
  bash: 2,
  sh: 2,
  zsh: 2,
  dash: 2,
  ksh: 2,
  ruby: 2,
  perl: 2,
  php: 2,
  lua: 2,
  tsx: 2,
  'ts-node': 2,
  Rscript: 2,
};
/**
 * Subcommands that take one more word: `npm run build`, `docker compose up`, and those that run
 * the command named next (`pnpm exec tsc`, `go run ./cmd/x`, `docker exec web`), which alone
 * would allow every command they can run.
 */
const LONGER = new Set([
  'npm run',
  'pnpm run',
  'yarn run',
  'bun run',
  'docker compose',
  'python -m',
  'python3 -m',
  'uv run',
  'poetry run',
  'go tool',
  'npm exec',
  'npm x',
  'pnpm exec',
  'pnpm dlx',
  'yarn exec',
  'yarn dlx',
  'bun x',
  'deno run',
  'pipx run',
  'go run',
  'docker run',
  'docker exec',
  'podman run',
  'podman exec',
  'kubectl exec',
  'dotnet exec',
]);

/** Runners that take a container (or an image) and then the command they run in it. */
const IN_CONTAINER = new Set([
  'docker run',
  'docker exec',
  'podman run',
  'podman exec',
  'kubectl exec',
]);

/**
 * Whether a word reads back as itself from a rule's text, which is split at white space and
 * holds no control character: `git "" push` must not offer `git ` (read back as `git`, every
 * subcommand), nor `git "status x"` offer `git status x`.
 */
function keptByRule(word: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a rule must not carry them.
  return word !== '' && !/[\s\u0000-\u001f\u007f]/.test(word);
}

/** The prefix "always" remembers for a command's words, or `undefined` when it has none. */
export function commandPrefix(words: readonly (string | null)[]): string[] | undefined {
  const first = words[0];
  if (first === null || first === undefined || !keptByRule(first)) return undefined;
  const name = commandName(first);
  let arity = ARITY[name] ?? 1;
  if (LONGER.has(`${name} ${words[1] ?? ''}`)) arity += 1;
  // `docker exec web ls`: the container, then the command run in it.
  if (IN_CONTAINER.has(`${name} ${words[1] ?? ''}`)) arity += 1;
  const prefix = [name];
  for (let index = 1; index < arity; index++) {
    const word = words[index];
    // `git -C x push`, or a bare `make`: no prefix says what it runs, and one word would allow
    // every subcommand.
    if (word === null || word === undefined || !keptByRule(word)) return undefined;
    // `python -m pytest`: the module flag names the command; any other option comes too early.
    if (word.startsWith('-') && !(name.startsWith('python') && word === '-m')) return undefined;
    prefix.push(word);
  }
  return prefix;
}
