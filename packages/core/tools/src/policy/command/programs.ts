import {
  awkProblem,
  clusterHolds,
  gitProblem,
  optionProblem,
  packageManagerProblem,
} from './program-checks.js';
import type { ProgramRecord } from './program-record.js';
import { sedProblem } from './sed-check.js';
import { SHELL_RECORDS } from './shell-records.js';

export type { ProgramRecord };

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

const TWO_WORDS: ProgramRecord = { arity: 2 };

/** The records of programs, by the name a command is known by. */
const TOOL_RECORDS: Readonly<Record<string, ProgramRecord>> = {
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

const RECORDS = new Map([...Object.entries(SHELL_RECORDS), ...Object.entries(TOOL_RECORDS)]);

/** The record of a program, if it has one (`constructor` is no program). */
export function programRecord(name: string): ProgramRecord | undefined {
  return RECORDS.get(name);
}

export { changesWhatRuns, setsProblem } from './variables.js';
export { clusterHolds };
