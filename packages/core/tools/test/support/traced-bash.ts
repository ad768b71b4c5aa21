import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// What bash really runs of a command line, traced: for bash-differential.ts and the attack tests.

/** Functions that log each builtin a command may run, with its words, then run it. */
const BUILTINS = ['echo', 'printf', 'true', 'false', 'pwd', 'test', 'command', 'cd', 'eval'];
// One write per record (the commands of a pipeline log at the same time), and no new line in it:
// bash writes a builtin's output line by line, so a record holding one would be cut in two there.
// Each word is written with `\\` and new lines escaped.
const TRACE_FUNCTIONS = `__dsh_log() { local __dsh_record='' __dsh_word; for __dsh_word in "$@"; do __dsh_word=\${__dsh_word//\\\\/\\\\\\\\}; __dsh_record+=\${__dsh_word//$'\\n'/\\\\n}$'\\x1f'; done; builtin printf '%s\\x1e' "$__dsh_record" >> "$DSH_TRACE"; }
${BUILTINS.map((name) => `${name}() { __dsh_log ${name} "$@"; builtin ${name} "$@"; }`).join('\n')}
`;

/** What bash ran for a command line: each program and builtin, as the words it was given. */
export interface BashRun {
  readonly ran: string[][];
  /** Files the command left in its folder. */
  readonly files: string[];
}

function hexText(text: string): string {
  return Buffer.from(text.replace(/\\x/g, ''), 'hex').toString('utf8');
}

const MARK = '__dsh_differential_mark__';

/**
 * Runs each command with `bash -c`, one after another, each in a folder of its own inside a new
 * temporary folder (removed after), under one `strace` (starting it once per command cost ten
 * times the command), tracing every program each starts and every builtin it runs. A marker
 * program run after each command tells their traces apart. Needs `strace`.
 */
export function runTracedBatch(commands: readonly string[]): BashRun[] {
  const folder = mkdtempSync(join(tmpdir(), 'dsh-differential-'));
  try {
    const functions = join(folder, 'functions.sh');
    const builtins = join(folder, 'builtins.log');
    const list = join(folder, 'commands');
    const trace = join(folder, 'trace');
    writeFileSync(functions, TRACE_FUNCTIONS);
    writeFileSync(builtins, '');
    writeFileSync(list, commands.map((command) => `${command}\0`).join(''));
    for (let index = 0; index < commands.length; index++) mkdirSync(join(folder, `w${index}`));
    const driver = `i=0; while IFS= read -r -d '' c; do cd "$DSH_BASE/w$i" && BASH_ENV="$DSH_FUNCTIONS" bash -c "$c" </dev/null >/dev/null 2>&1; builtin printf '${MARK}\\x1e' >> "$DSH_TRACE"; /bin/true ${MARK}; i=$((i+1)); done < "$DSH_LIST"`;
    spawnSync(
      'strace',
      [
        '-f',
        '--seccomp-bpf',
        '-qq',
        '-xx',
        '-s',
        '65535',
        '-e',
        'trace=execve',
        '-e',
        'signal=none',
      ].concat(['-o', trace, 'bash', '-c', driver]),
      {
        cwd: folder,
        stdio: 'ignore',
        timeout: 60_000 + commands.length * 1_000,
        env: {
          PATH: process.env.PATH,
          HOME: folder,
          LANG: 'C.UTF-8',
          DSH_BASE: folder,
          DSH_FUNCTIONS: functions,
          DSH_TRACE: builtins,
          DSH_LIST: list,
        },
      },
    );
    const runs: { ran: string[][]; files: string[] }[] = commands.map((_, index) => ({
      ran: [],
      files: readdirSync(join(folder, `w${index}`)),
    }));
    // Each process's execve, as it started (`<unfinished ...>`) and as it ended (`= 0`).
    const pending = new Map<string, string[]>();
    let index = 0;
    for (const line of readFileSync(trace, 'utf8').split('\n')) {
      const started = /^(\d+) +execve\("[^"]*", \[(.*?)\], /.exec(line);
      const pid = started?.[1] ?? /^(\d+) +<\.\.\. execve resumed/.exec(line)?.[1];
      if (pid === undefined) continue;
      if (started !== null) {
        const argv = [...(started[2] as string).matchAll(/"((?:\\x[0-9a-f]{2})*)"/g)].map((found) =>
          hexText(found[1] as string),
        );
        pending.set(pid, argv);
      }
      if (!/\) = 0$/.test(line)) continue;
      const argv = pending.get(pid) as string[];
      pending.delete(pid);
      if (argv[0] === '/bin/true' && argv[1] === MARK) {
        index++;
        continue;
      }
      const command = commands[index];
      const run = runs[index];
      if (run === undefined) continue;
      // The driver's own: itself, and the shell it starts for the command.
      if (argv[0] === 'bash' && argv[1] === '-c' && (argv[2] === command || argv[2] === driver))
        continue;
      run.ran.push(argv);
    }
    index = 0;
    for (const entry of readFileSync(builtins, 'utf8').split('\u001e')) {
      if (entry === MARK) index++;
      else if (entry !== '')
        runs[index]?.ran.push(
          entry
            .split('\u001f')
            .slice(0, -1)
            .map((word) =>
              word.replace(/\\([\\n])/g, (_, escaped) => (escaped === 'n' ? '\n' : '\\')),
            ),
        );
    }
    return runs;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Runs one command traced (see `runTracedBatch`). */
export function runTraced(command: string): BashRun {
  return runTracedBatch([command])[0] as BashRun;
}

/** Whether `strace` can trace here (a container may refuse ptrace). */
export function canTrace(): boolean {
  const result = spawnSync('strace', ['-qq', '-e', 'trace=execve', 'true'], { stdio: 'ignore' });
  return result.status === 0;
}
