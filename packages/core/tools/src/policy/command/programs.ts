import {
  awkProblem,
  clusterHolds,
  gitProblem,
  optionProblem,
  packageManagerProblem,
  sedProblem,
} from './program-checks.js';

/**
 * What the policy knows of one program or builtin, in one record: how it runs another command
 * (so that deny rules meet that command), whether it runs it as another user, whether it runs text
 * no rule can check, which of its own options make it run code or write elsewhere, and how many
 * of its words name it for an "always" rule.
 */
export interface ProgramRecord {
  /** It runs the command its words name after its options (`env`, `nice`, `timeout`, `sudo`). */
  readonly wraps?: {
    /** Options that take a value (the rest of a short cluster, `=value`, or the next word). */
    readonly valueOptions: readonly string[];
    /** Long options that take none: any other long option is not read here, and asks. */
    readonly flags?: readonly string[];
    /** Words between its options and the command (`timeout 10 cmd`: one). */
    readonly before?: number;
    /** With `-p`, it changes a running process and starts none (`chrt -p`, `taskset -p`). */
    readonly pidMode?: boolean;
    /** Without a command it opens a shell (`sudo`, `exec`): nothing to check. */
    readonly shellWhenAlone?: boolean;
    /** Without a command it runs this one (`xargs` runs `echo`). */
    readonly defaultCommand?: string;
    /** It adds words of its own input to the command (`xargs`): a rule cannot see them. */
    readonly addsWords?: boolean;
    /** Nothing about it changes what runs (`nice`, `timeout`): a rule for the command allows it. */
    readonly transparent?: boolean;
  };
  /** It runs the command as another user: deny rules apply to it, allow rules never. */
  readonly elevates?: boolean;
  /** It runs commands its words cannot show (`parallel`, `tmux`): no rule may allow it. */
  readonly opaque?: boolean;
  /** It runs text as shell code (`eval`, `source`): no rule may allow it. */
  readonly evaluates?: boolean;
  /** A builtin that changes how the shell reads or runs what follows: no rule may allow it. */
  readonly shellState?: boolean;
  /** A shell: `bash` (the grammar read here) or another one. */
  readonly shell?: 'bash' | 'other';
  /** Why its own words make it run code or write elsewhere, if they do. */
  readonly check?: (words: readonly string[]) => string | undefined;
  /** How many words name it for an "always" rule (`git commit`: 2). Default 1. */
  readonly arity?: number;
  /** Its subcommands that take one more word (`npm run build`, `pnpm exec tsc`). */
  readonly longer?: readonly string[];
  /** Subcommands that take a container, then the command run in it (`docker exec web ls`). */
  readonly inContainer?: readonly string[];
}

const INTERPRETER_CODE = [
  'eval',
  'print',
  'require',
  'import',
  'loader',
  'experimental-loader',
  'input-type',
  'env-file',
  'command',
];

/**
 * An interpreter: its script names the command (`node build.js`); inline code (`-e`, `-c`,
 * `--eval`, `--import=data:…`) or a program read from its input is never a rule's.
 */
function interpreter(letters: string, longer?: readonly string[]): ProgramRecord {
  return {
    arity: 2,
    ...(longer !== undefined && { longer }),
    check(words) {
      for (let index = 1; index < words.length; index++) {
        const word = words[index] as string;
        if (word === '-' || word === '--') break;
        if (!word.startsWith('-')) return undefined;
        const problem = optionProblem([words[0] as string, word], INTERPRETER_CODE, letters);
        if (problem !== undefined) return problem;
      }
      return `\`${words[0]}\` without a script runs what it reads`;
    },
  };
}

/**
 * A package manager: its own options are checked, and so is the command `exec` runs, unless that
 * is a runner again (`npx npx … tsc` would be read to any depth).
 */
function packageManagerCheck(words: readonly string[]): string | undefined {
  return packageManagerProblem(words, (index) => {
    const command = words.slice(index);
    const record = programRecord(command[0] as string);
    if (record?.check === packageManagerCheck)
      return `\`${words[0]}\` runs another package runner, which is not read`;
    return record?.check?.(command);
  });
}

const PACKAGE_MANAGER: ProgramRecord = {
  arity: 2,
  check: packageManagerCheck,
  longer: ['run', 'exec', 'x', 'dlx'],
};

/** Options of a shell that may stand before its script: tracing and stopping on errors. */
function shellProblem(words: readonly string[]): string | undefined {
  for (let index = 1; index < words.length; index++) {
    const word = words[index] as string;
    if (!word.startsWith('-') && !word.startsWith('+')) return undefined;
    if (word === '--' || word === '--norc' || word === '--noprofile') continue;
    if (word === '-o' && words[index + 1] === 'pipefail') {
      index++;
      continue;
    }
    if (/^-[euxvc]+$/.test(word)) continue;
    return `\`${words[0]} ${word}\` can load start-up files or read its script elsewhere`;
  }
  return `\`${words[0]}\` without a script runs what it reads`;
}

const BASH: ProgramRecord = { shell: 'bash', arity: 2, check: shellProblem };
const OTHER_SHELL: ProgramRecord = { shell: 'other', arity: 2, check: shellProblem };

const wraps = (
  valueOptions: readonly string[],
  more: Omit<NonNullable<ProgramRecord['wraps']>, 'valueOptions'> = {},
): NonNullable<ProgramRecord['wraps']> => ({ valueOptions, ...more });

const OPAQUE: ProgramRecord = { opaque: true };
const EVALUATES: ProgramRecord = { evaluates: true };
const SHELL_STATE: ProgramRecord = { shellState: true };
const TWO_WORDS: ProgramRecord = { arity: 2 };

/** The records, by the name a command is known by. */
export const PROGRAMS: Readonly<Record<string, ProgramRecord>> = {
  // Wrappers that run the command their words name.
  env: {
    wraps: wraps(['-u', '--unset', '-C', '--chdir', '-a', '--argv0', '-S', '--split-string'], {
      transparent: true,
      flags: ['--ignore-environment', '--null', '--debug'],
    }),
  },
  sudo: {
    elevates: true,
    wraps: wraps(
      ['-u', '--user', '-g', '--group', '-h', '--host', '-p', '--prompt'].concat([
        '-C',
        '-D',
        '-r',
        '-t',
        '-T',
        '-U',
      ]),
      { shellWhenAlone: true },
    ),
  },
  doas: { elevates: true, wraps: wraps(['-u', '-C']) },
  pkexec: { elevates: true, wraps: wraps(['--user']) },
  runuser: {
    elevates: true,
    wraps: wraps(['-u', '--user', '-g', '--group', '-G', '--supp-group']),
  },
  nice: { wraps: wraps(['-n', '--adjustment'], { transparent: true }) },
  timeout: {
    wraps: wraps(['-s', '--signal', '-k', '--kill-after'], {
      before: 1,
      transparent: true,
      flags: ['--foreground', '--preserve-status', '--verbose'],
    }),
  },
  xargs: {
    wraps: wraps(
      ['-I', '-L', '-n', '-P', '-d', '-E', '-s', '-a', '--arg-file', '--delimiter'].concat([
        '--max-args',
        '--max-procs',
        '--max-lines',
        '--replace',
        '--eof',
      ]),
      { defaultCommand: 'echo', addsWords: true },
    ),
  },
  command: { wraps: wraps([], { transparent: true }) },
  builtin: { wraps: wraps([]) },
  exec: { wraps: wraps(['-a'], { shellWhenAlone: true }) },
  nohup: { wraps: wraps([], { transparent: true }) },
  time: { wraps: wraps(['-f', '--format', '-o', '--output'], { transparent: true }) },
  stdbuf: {
    wraps: wraps(['-i', '-o', '-e', '--input', '--output', '--error'], { transparent: true }),
  },
  setsid: { wraps: wraps([]) },
  unbuffer: { wraps: wraps([]) },
  busybox: { wraps: wraps([]) },
  ionice: { wraps: wraps(['-c', '--class', '-n', '--classdata'], { pidMode: true }) },
  chrt: {
    wraps: wraps(['-T', '--sched-runtime', '-P', '--sched-period', '-D', '--sched-deadline'], {
      before: 1,
      pidMode: true,
    }),
  },
  taskset: { wraps: wraps([], { before: 1, pidMode: true }) },
  strace: {
    opaque: true,
    wraps: wraps(
      ['-e', '-o', '--output', '-s', '--string-limit', '-u', '--user', '-E', '--env'].concat([
        '-a',
        '-b',
        '-I',
        '-O',
        '-P',
        '-S',
        '-X',
      ]),
    ),
  },
  // Programs that run commands their words cannot show.
  parallel: OPAQUE,
  firejail: OPAQUE,
  nsenter: OPAQUE,
  unshare: OPAQUE,
  chroot: OPAQUE,
  sg: OPAQUE,
  newgrp: OPAQUE,
  'systemd-run': OPAQUE,
  tmux: OPAQUE,
  screen: OPAQUE,
  expect: OPAQUE,
  coproc: OPAQUE,
  // Builtins that run text, or keep it to run later.
  eval: EVALUATES,
  source: EVALUATES,
  '.': EVALUATES,
  trap: EVALUATES,
  bind: EVALUATES,
  complete: EVALUATES,
  compgen: EVALUATES,
  fc: EVALUATES,
  // `jobs -x cmd` runs cmd.
  jobs: EVALUATES,
  // Builtins that change how the shell reads or runs what follows.
  alias: SHELL_STATE,
  unalias: SHELL_STATE,
  shopt: SHELL_STATE,
  set: SHELL_STATE,
  enable: SHELL_STATE,
  hash: SHELL_STATE,
  declare: SHELL_STATE,
  typeset: SHELL_STATE,
  local: SHELL_STATE,
  export: SHELL_STATE,
  readonly: SHELL_STATE,
  let: SHELL_STATE,
  unset: SHELL_STATE,
  read: SHELL_STATE,
  mapfile: SHELL_STATE,
  readarray: SHELL_STATE,
  getopts: SHELL_STATE,
  ulimit: SHELL_STATE,
  umask: SHELL_STATE,
  history: SHELL_STATE,
  // `test -v name` evaluates a subscript in the name; `printf -v name` sets a variable.
  test: { check: (words) => optionProblem(words, [], 'vR') },
  '[': { check: (words) => optionProblem(words, [], 'vR') },
  printf: { check: (words) => optionProblem(words, [], 'v') },
  // Shells: a bash script is read again here; another shell's grammar is not the one read.
  bash: BASH,
  sh: OTHER_SHELL,
  dash: OTHER_SHELL,
  zsh: OTHER_SHELL,
  ksh: OTHER_SHELL,
  // Programs whose own options run code or write elsewhere.
  git: { arity: 2, check: gitProblem },
  npm: PACKAGE_MANAGER,
  pnpm: PACKAGE_MANAGER,
  yarn: PACKAGE_MANAGER,
  bun: { ...PACKAGE_MANAGER, longer: ['run', 'x'] },
  npx: { arity: 2, check: packageManagerCheck },
  pnpx: { arity: 2, check: packageManagerCheck },
  bunx: { arity: 2, check: packageManagerCheck },
  sed: { check: sedProblem },
  awk: { check: awkProblem },
  gawk: { check: awkProblem },
  mawk: { check: awkProblem },
  nawk: { check: awkProblem },
  find: {
    check: (words) =>
      words.some((word) => /^-(?:delete|fprint0?|fprintf|fls)$/.test(word))
        ? '`find` with an action that deletes or writes files'
        : undefined,
  },
  make: {
    arity: 2,
    check: (words) =>
      optionProblem(
        words,
        ['eval', 'file', 'makefile', 'directory', 'include-dir', 'environment-overrides'],
        'fCIEe',
        'fCIjlOW',
      ) ??
      (words.slice(1).some((word) => !word.startsWith('-') && word.includes('='))
        ? '`make NAME=value` overrides a variable of the makefile, which can run a command'
        : // `make test deploy` runs a target the rule for `make test` does not name.
          words.slice(1).filter((word) => !word.startsWith('-')).length > 1
          ? '`make` with more than one target'
          : undefined),
  },
  tar: {
    check: (words) =>
      optionProblem(
        words,
        ['to-command', 'use-compress-program', 'checkpoint-action', 'info-script']
          .concat(['new-volume-script', 'rsh-command', 'rmt-command', 'directory'])
          .concat(['absolute-names', 'transform', 'xform']),
        'ICFP',
        'fbCHgKLNTVX',
      ) ??
      // The old style, `tar xzf a.tar`: the first word is a cluster without its dash.
      (words[1] !== undefined && !words[1].startsWith('-') && /[ICFP]/.test(words[1])
        ? `\`tar ${words[1]}\` can run a program or write elsewhere`
        : undefined),
  },
  rsync: {
    check: (words) =>
      optionProblem(
        words,
        ['rsh', 'rsync-path', 'config', 'daemon', 'write-batch', 'only-write-batch'].concat([
          'log-file',
          'remote-option',
          'temp-dir',
          'backup-dir',
          'partial-dir',
        ]),
        'eMT',
      ),
  },
  // `sort` runs a compressor and writes its output file; `uniq IN OUT` writes OUT.
  sort: {
    check: (words) =>
      optionProblem(
        words,
        ['compress-program', 'output', 'temporary-directory', 'files0-from'],
        'oT',
        'kSt',
      ),
  },
  uniq: {
    check: (words) =>
      words.slice(1).filter((word) => !word.startsWith('-')).length > 1
        ? '`uniq` with two files writes the second'
        : undefined,
  },
  // ssh runs commands here (`ProxyCommand`, `LocalCommand`, `-F` a config) and anywhere there.
  xxd: {
    check: (words) =>
      words.slice(1).filter((word) => !word.startsWith('-')).length > 1
        ? '`xxd` with two files writes the second'
        : undefined,
  },
  ssh: { opaque: true },
  scp: { opaque: true },
  sftp: { opaque: true },
  // Interpreters: the script is the command.
  node: interpreter('epr'),
  nodejs: interpreter('epr'),
  python: interpreter('c', ['-m']),
  python3: interpreter('c', ['-m']),
  ruby: interpreter('erI'),
  perl: interpreter('eEIMm'),
  php: interpreter('rRBEf'),
  lua: interpreter('el'),
  deno: { arity: 2, longer: ['run'] },
  tsx: interpreter('ep'),
  'ts-node': interpreter('epr'),
  Rscript: interpreter('e'),
  // How many words name the command for "always".
  // `cargo --config target.x.runner=…` and `-Z` run a program of the command's choosing.
  cargo: {
    arity: 2,
    check: (words) => optionProblem(words, ['config', 'manifest-path', 'target-dir'], 'Z'),
  },
  // Go's options take one dash as well as two: `go test -exec x`, `-toolexec x`, `-o elsewhere`.
  go: {
    arity: 2,
    longer: ['run', 'tool'],
    check: (words) =>
      words.some((word) => /^--?(?:exec|toolexec|modfile|overlay|o|C)(?:=|$)/.test(word))
        ? `\`go\` with an option that runs a program of its own or writes elsewhere`
        : undefined,
  },
  docker: {
    arity: 2,
    longer: ['compose', 'run', 'exec'],
    inContainer: ['run', 'exec'],
  },
  podman: { arity: 2, longer: ['run', 'exec'], inContainer: ['run', 'exec'] },
  kubectl: { arity: 2, longer: ['exec'], inContainer: ['exec'] },
  pip: TWO_WORDS,
  pip3: TWO_WORDS,
  uv: { arity: 2, longer: ['run'] },
  poetry: { arity: 2, longer: ['run'] },
  dotnet: { arity: 2, longer: ['exec'] },
  mvn: TWO_WORDS,
  gradle: TWO_WORDS,
  brew: TWO_WORDS,
  apt: TWO_WORDS,
  'apt-get': TWO_WORDS,
  gh: { arity: 3 },
  uvx: TWO_WORDS,
  pipx: { arity: 2, longer: ['run'] },
};

const RECORDS = new Map(Object.entries(PROGRAMS));

/** The record of a program, if it has one (`constructor` is no program). */
export function programRecord(name: string): ProgramRecord | undefined {
  return RECORDS.get(name);
}

/**
 * Variables a command may set and still be allowed by a rule: ones no program reads as a
 * command, a path to load from or options to obey. Every other one asks, whatever its case, for
 * no list can name every one that does (`PATH`, `EDITOR`, `npm_config_*`, `pnpm_config_*`,
 * `GIT_*`, `*_OPTIONS`, `LD_*`, `BASH_ENV`, `ENV`, `PROMPT_COMMAND`, ...).
 */
const INERT_VARIABLE =
  /^(?:CI|NODE_ENV|FORCE_COLOR|NO_COLOR|TERM|COLUMNS|LINES|LANG|LANGUAGE|LC_[A-Z]+|TZ|DEBUG|RUST_LOG|RUST_BACKTRACE|GOOS|GOARCH|CGO_ENABLED|PYTHONUNBUFFERED|PYTHONDONTWRITEBYTECODE|PYTHONIOENCODING|NODE_NO_WARNINGS)$/;

/**
 * Whether setting `variable` (to `value`) may change what a command runs (see `INERT_VARIABLE`).
 * A locale is inert only when it is C, POSIX or UTF-8: in GBK, Big5 or Shift-JIS a byte of a
 * character may be `\\` or a quote, so `LC_ALL=zh_CN.GBK bash -c '…'` (or `sed`) reads a script
 * otherwise than it was checked.
 */
export function changesWhatRuns(variable: string, value = ''): boolean {
  if (!INERT_VARIABLE.test(variable)) return true;
  return /^(?:LANG|LC_)/.test(variable) && !/^(?:C|POSIX|[\w@-]+\.(?:UTF-8|utf8))?$/.test(value);
}

/** Why no rule may allow a command that sets `variable`. */
export function setsProblem(variable: string): string {
  return `it sets ${variable}, which can change what the command runs`;
}

export { clusterHolds };
