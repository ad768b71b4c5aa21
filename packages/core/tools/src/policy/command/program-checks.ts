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

/**
 * A sed script that only prints, deletes, substitutes and moves between lines: every command is
 * one of `p d D q Q = n N P h H g G x l z`, `s` with the flags `g p i I m M` and digits, or `y`,
 * each after an optional address. `e`, `w`, `W`, `r`, `R`, an `s///e` or `s///w` and blocks are
 * not read, so the script asks.
 */
export function sedScriptProblem(script: string): string | undefined {
  const refused = '`sed` with a script that can run a command, read or write a file';
  let index = 0;
  const skipBlank = (): void => {
    while (index < script.length && /[\s;]/.test(script[index] as string)) index++;
  };
  /** Reads a delimited part (`/re/`), escapes included; false when it is not closed. */
  const delimited = (delimiter: string): boolean => {
    for (; index < script.length; index++) {
      const character = script[index];
      if (character === '\\') index++;
      else if (character === delimiter) {
        index++;
        return true;
      } else if (character === '\n') return false;
    }
    return false;
  };
  const address = (): boolean => {
    const character = script[index];
    if (character === '/') {
      index++;
      if (!delimited('/')) return false;
      while (script[index] === 'I' || script[index] === 'M') index++;
      return true;
    }
    if (character === '$') {
      index++;
      return true;
    }
    const digits = /^\d+(?:~\d+)?/.exec(script.slice(index, index + 24));
    if (digits !== null) index += digits[0].length;
    return true;
  };
  skipBlank();
  while (index < script.length) {
    if (!address()) return refused;
    if (script[index] === ',') {
      index++;
      if (!address()) return refused;
    }
    while (script[index] === ' ' || script[index] === '!') index++;
    const command = script[index];
    index++;
    if (command === 's' || command === 'y') {
      const delimiter = script[index];
      if (delimiter === undefined || /[\s\\\w]/.test(delimiter)) return refused;
      index++;
      if (!delimited(delimiter) || !delimited(delimiter)) return refused;
      if (command === 's') {
        while (index < script.length && /[gpiImM0-9]/.test(script[index] as string)) index++;
      }
    } else if (command === 'q' || command === 'Q' || command === 'l') {
      while (index < script.length && /\d/.test(script[index] as string)) index++;
    } else if (command === undefined || !'pdDqQ=nNPhHgGxlz'.includes(command)) {
      return refused;
    }
    if (index < script.length && !/[\s;]/.test(script[index] as string)) return refused;
    skipBlank();
  }
  return undefined;
}

/** Options of GNU and BSD sed that change nothing they may write or run. */
const SED_FLAGS = new Set([
  '-n',
  '--quiet',
  '--silent',
  '-E',
  '-r',
  '--regexp-extended',
  '-z',
  '--null-data',
  '-u',
  '--unbuffered',
  '--posix',
  '--debug',
  '--sandbox',
  '-s',
  '--separate',
]);

export function sedProblem(words: Words): string | undefined {
  let script: string | undefined;
  let scripts = 0;
  for (let index = 1; index < words.length; index++) {
    const word = words[index] as string;
    if (word === '-e' || word === '--expression') {
      const given = words[++index];
      if (given === undefined) return undefined;
      const problem = sedScriptProblem(given);
      if (problem !== undefined) return problem;
      scripts++;
    } else if (word.startsWith('--expression=')) {
      const problem = sedScriptProblem(word.slice('--expression='.length));
      if (problem !== undefined) return problem;
      scripts++;
    } else if (word.startsWith('-') && word !== '-') {
      if (!SED_FLAGS.has(word))
        return `\`sed ${word}\` is not an option known to leave files unchanged`;
    } else if (scripts === 0 && script === undefined) {
      script = word;
    }
  }
  return script === undefined ? undefined : sedScriptProblem(script);
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
