/**
 * Checks of what a program's own words make it do: the option or the script text by which a
 * program a rule names runs code or writes elsewhere. Each returns why no rule may allow the
 * words, or `undefined`. They read the words the program gets (its name first).
 */

type Words = readonly string[];

/**
 * Whether `word` names one of the long options `names` (given without `--`): exactly, with
 * `=value`, or abbreviated, as getopt_long, git's parse-options and npm's nopt all accept
 * (`--upload-p` is `--upload-pack`). Any prefix counts: fail closed where it is ambiguous.
 */
export function namesLongOption(word: string, names: readonly string[]): string | undefined {
  if (!word.startsWith('--') || word.length < 3) return undefined;
  const equals = word.indexOf('=');
  const given = word.slice(2, equals === -1 ? undefined : equals);
  return names.find((name) => name.startsWith(given));
}

/**
 * Whether `word` is a cluster of short options holding one of `letters` (`-xc` holds `c`), as
 * getopt reads it: up to the first letter that takes a value, which `valued` lists.
 */
export function clusterHolds(word: string, letters: string, valued = ''): boolean {
  if (word.length < 2 || word[0] !== '-' || word[1] === '-') return false;
  for (let index = 1; index < word.length; index++) {
    const letter = word[index] as string;
    if (letters.includes(letter)) return true;
    if (valued.includes(letter)) return false;
  }
  return false;
}

/** The options `names` (long, abbreviations included) and `letters` (short), anywhere before `--`. */
export function optionProblem(
  words: Words,
  names: readonly string[],
  letters = '',
  valued = '',
): string | undefined {
  for (let index = 1; index < words.length; index++) {
    const word = words[index] as string;
    if (word === '--') return undefined;
    const long = namesLongOption(word, names);
    if (long !== undefined) return `\`${words[0]} --${long}\` can run code or write elsewhere`;
    if (letters !== '' && clusterHolds(word, letters, valued))
      return `\`${words[0]} ${word}\` can run code or write elsewhere`;
  }
  return undefined;
}

/**
 * npm, pnpm, yarn and bun read any `--name=value` before `--` as configuration (`--node-options`,
 * `--script-shell`, `--userconfig`, abbreviated as well): only options known to change nothing
 * of what runs may stand there.
 */
const PACKAGE_MANAGER_OPTIONS = new Set([
  '-s',
  '--silent',
  '-q',
  '--quiet',
  '--if-present',
  '--workspaces',
  '--ws',
  '--include-workspace-root',
  '-r',
  '--recursive',
  '--parallel',
  '--stream',
  '--frozen-lockfile',
  '--offline',
  '--prefer-offline',
  '--no-color',
  '--color',
  '--verbose',
  '--json',
  '-D',
  '--save-dev',
  '-E',
  '--save-exact',
  '--ignore-scripts',
  '--watch',
  '--coverage',
  '--bail',
]);
/** Options of those that take a value that names nothing to run (`--workspace app`). */
const PACKAGE_MANAGER_VALUES = new Set(['-w', '--workspace', '--filter', '-F']);

/** Subcommands of a package manager that run the command named next (`pnpm exec tsc`). */
const RUNS_COMMAND = new Set(['exec', 'x', 'dlx']);

/**
 * Why a package manager's own options make it run code, or `undefined`; with `inner` told
 * where the command it runs starts (`pnpm exec tsc --noEmit`: `tsc`, whose options are its own).
 */
export function packageManagerProblem(
  words: Words,
  inner?: (index: number) => string | undefined,
): string | undefined {
  let runs = /^(?:npx|pnpx|bunx)$/.test(words[0] ?? '');
  let subcommand = runs;
  for (let index = 1; index < words.length; index++) {
    const word = words[index] as string;
    if (word === '--') return undefined;
    if (!word.startsWith('-') || word === '-') {
      if (runs) return inner?.(index);
      if (!subcommand) {
        subcommand = true;
        runs = RUNS_COMMAND.has(word);
      }
      continue;
    }
    const name = word.includes('=') ? word.slice(0, word.indexOf('=')) : word;
    if (PACKAGE_MANAGER_VALUES.has(name)) {
      // Not every manager takes a value there (`npm --filter` is a flag): a next word that is
      // an option is read as one.
      if (!word.includes('=') && !(words[index + 1] ?? '-').startsWith('-')) index++;
      continue;
    }
    if (!PACKAGE_MANAGER_OPTIONS.has(word))
      return `\`${words[0]} ${word}\` sets an option that can change what runs (put the script's own options after \`--\`)`;
  }
  return undefined;
}

/** Options of git, of any subcommand, by which it runs a program, or writes or works elsewhere. */
const GIT_LONG = [
  'upload-pack',
  'receive-pack',
  'exec',
  'exec-path',
  'open-files-in-pager',
  'output',
  'output-directory',
  'config',
  'config-env',
  'template',
  'extcmd',
  'tool',
  'git-dir',
  'work-tree',
  'namespace',
  'separate-git-dir',
  'sendmail-cmd',
  'smtp-server',
  'to-cmd',
  'cc-cmd',
  'reference',
  'shared',
  'ext-diff',
  'textconv',
  'paginate',
];
/** Short options that do the same in some subcommand (`-c`, `-C` before it; `-u`, `-O`, `-o`, `-x`, `-t`). */
const GIT_SUBCOMMAND_LETTERS: Readonly<Record<string, string>> = {
  fetch: 'u',
  pull: 'u',
  clone: 'uc',
  'ls-remote': 'u',
  archive: 'o',
  grep: 'O',
  'format-patch': 'o',
  rebase: 'x',
  difftool: 'xt',
  mergetool: 't',
  diff: 'o',
};
/** Subcommands whose words name a command to run, or that run a program of the person's mail set-up. */
const GIT_RUNNERS = new Set(['send-email', 'filter-branch', 'filter-repo', 'daemon', 'shell']);

export function gitProblem(words: Words): string | undefined {
  let index = 1;
  // Options before the subcommand: `-c name=value` (an alias, a pager, a hook path), `-C dir`.
  for (; index < words.length; index++) {
    const word = words[index] as string;
    if (!word.startsWith('-')) break;
    if (clusterHolds(word, 'cC') || namesLongOption(word, GIT_LONG) !== undefined)
      return `\`git ${word}\` can run a program or work elsewhere`;
  }
  const subcommand = words[index];
  if (subcommand === undefined) return undefined;
  if (GIT_RUNNERS.has(subcommand)) return `\`git ${subcommand}\` can run other programs`;
  if (subcommand === 'bisect' && words[index + 1] === 'run')
    return '`git bisect run` runs a command';
  if (subcommand === 'submodule' && words.includes('foreach'))
    return '`git submodule foreach` runs a command';
  const letters = GIT_SUBCOMMAND_LETTERS[subcommand] ?? '';
  return optionProblem(['git', ...words.slice(index + 1)], GIT_LONG, letters);
}

/** An awk program that calls no program, opens no pipe, redirects nothing and loads nothing. */
const AWK_REFUSED = /system|getline|[|>]|@|ENVIRON|PROCINFO/;

export function awkProblem(words: Words): string | undefined {
  let program: string | undefined;
  for (let index = 1; index < words.length; index++) {
    const word = words[index] as string;
    if (word === '--') {
      program ??= words[index + 1];
      break;
    }
    if (word === '-F' || word === '-v') {
      index++;
      continue;
    }
    if (/^-[Fv]./.test(word)) continue;
    if (word.startsWith('-'))
      return `\`${words[0]} ${word}\` is not an option known to run only the given program`;
    program = word;
    break;
  }
  if (program !== undefined && AWK_REFUSED.test(program))
    return `an \`${words[0]}\` program that runs a command, opens a pipe or writes a file`;
  return undefined;
}
