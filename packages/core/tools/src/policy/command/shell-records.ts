import { optionProblem } from './program-checks.js';
import { type ProgramRecord, wraps } from './program-record.js';

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

const OPAQUE: ProgramRecord = { opaque: true };
const EVALUATES: ProgramRecord = { evaluates: true };
const SHELL_STATE: ProgramRecord = { shellState: true };
/** The records of wrappers, builtins and shells, by the name a command is known by. */
export const SHELL_RECORDS: Readonly<Record<string, ProgramRecord>> = {
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
};
