import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPermissionPolicy, openWorkspace } from '../../src/index.js';
import { analyseCommand } from '../../src/policy/command/analyse-command.js';
import { readPlainScript } from '../../src/policy/command/plain-script.js';
import { commandCheck } from './policy-checks.js';
import { randomSource } from './random-source.js';

/**
 * A differential test of the command policy against bash itself: generated command lines, and
 * for each one a rule allows, what bash really ran (every program it started, traced with
 * `strace -f -e execve`, and every builtin it ran, logged by a function of the same name loaded
 * through `BASH_ENV`). Only the commands the policy saw may run, with the words it saw.
 */

/** Programs the generated commands run, and that the rules of the test allow. */
export const ALLOWED_PROGRAMS = ['echo', 'printf', 'ls', 'cat', 'wc', 'head', 'true', 'false'];
/** Wrappers the rules see through. */
const WRAPPERS = ['env', 'command', 'nice', 'timeout 5', 'env CI=1', 'nice -n 5'];

/** Text that reads differently to one reader or another: quotes, escapes, controls, odd spaces. */
const TRICKY = [
  '$',
  '`',
  '\\',
  "'",
  '"',
  '#',
  ';',
  '&',
  '|',
  '(',
  ')',
  '<',
  '>',
  '{',
  '}',
  '*',
  '?',
  '[',
  ']',
  '~',
  '!',
  ' ',
  '\t',
  '\n',
  '\r',
  '\r\n',
  '\\\n',
  '\\\r\n',
  '\u00a0',
  '\u2028',
  '\u3000',
  '\u200b',
  '\uff1b',
  '\u0085',
  '\u000b',
  '\u000c',
  '$(touch pwned)',
  '`touch pwned`',
  ';touch pwned',
  '\ntouch pwned',
  '&&touch pwned',
  '|touch pwned',
  "$'\\''",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's own ${ }.
  '${IFS}',
  '{a,b}',
  '2>&1',
  '>/dev/null',
  '&>/dev/null',
  '<f',
  '>f',
];
const PLAIN_CHARACTERS = 'abcxyz0129-._/=:@%+,^';

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function plainWord(random: () => number): string {
  let word = '';
  const length = 1 + Math.floor(random() * 6);
  for (let index = 0; index < length; index++) word += pick(random, [...PLAIN_CHARACTERS]);
  return word;
}

function trickyText(random: () => number): string {
  let text = '';
  const length = Math.floor(random() * 4);
  for (let index = 0; index < length; index++)
    text += random() < 0.5 ? pick(random, TRICKY) : plainWord(random);
  return text;
}

function word(random: () => number): string {
  const choice = random();
  if (choice < 0.45) return plainWord(random);
  if (choice < 0.6) return `'${trickyText(random).replaceAll("'", '')}'`;
  if (choice < 0.75) return `"${trickyText(random).replace(/["$`\\]/g, '')}"`;
  if (choice < 0.85) return `\\${pick(random, [...'abc;|&<>()$`"\' #*?'])}${plainWord(random)}`;
  return `${plainWord(random)}${pick(random, ["''", '""', "'x y'", '"a b"'])}`;
}

function simpleCommand(random: () => number): string {
  const words = [pick(random, ALLOWED_PROGRAMS)];
  if (random() < 0.15) words.unshift(pick(random, WRAPPERS));
  if (random() < 0.1) words.unshift('CI=1');
  const count = Math.floor(random() * 4);
  for (let index = 0; index < count; index++) words.push(word(random));
  if (random() < 0.15)
    words.push(pick(random, ['2>&1', '>/dev/null', '2>/dev/null', '</dev/null']));
  return words.join(' ');
}

/** A command line: simple commands joined by operators, then perhaps mutated. */
export function generateCommand(random: () => number): string {
  const parts = [simpleCommand(random)];
  const more = Math.floor(random() * 3);
  for (let index = 0; index < more; index++) {
    parts.push(pick(random, [' && ', ' || ', '; ', ' | ', '\n', ';']));
    parts.push(simpleCommand(random));
  }
  let text = parts.join('');
  if (random() < 0.6) {
    const edits = 1 + Math.floor(random() * 3);
    for (let index = 0; index < edits; index++) {
      const at = Math.floor(random() * (text.length + 1));
      const kind = random();
      if (kind < 0.6) text = text.slice(0, at) + pick(random, TRICKY) + text.slice(at);
      else if (kind < 0.8) text = text.slice(0, at) + text.slice(at + 1);
      else text = text.slice(0, at) + pick(random, TRICKY) + text.slice(at + 1);
    }
  }
  return text;
}

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

/** Every command `text` runs as far as the policy saw it: each simple command, and what its wrappers run. */
async function seenRuns(text: string): Promise<Set<string>> {
  const known = new Set<string>();
  const plain = readPlainScript(text, { multibyte: true });
  if (plain.plain) for (const command of plain.commands) known.add(JSON.stringify(command.words));
  for (const part of (await analyseCommand(text)).parts) known.add(JSON.stringify(part.words));
  return known;
}

/** A command line a rule allowed, and what bash ran of it that the policy did not see. */
export interface Disagreement {
  readonly command: string;
  readonly unseen: string[][];
  readonly files: string[];
}

/**
 * Generates `count` command lines from `seed`, decides each under rules that allow
 * `ALLOWED_PROGRAMS` and deny `touch`, runs those allowed under bash (traced), and returns how
 * many were allowed and every one where bash ran a command the policy did not see, or left a
 * file. Works in a temporary folder it removes.
 */
export async function differentialRun(
  seed: number,
  count: number,
): Promise<{ allowed: number; disagreements: Disagreement[] }> {
  const folder = mkdtempSync(join(tmpdir(), 'dsh-differential-policy-'));
  try {
    mkdirSync(join(folder, 'workspace'));
    const workspace = await openWorkspace(join(folder, 'workspace'));
    const policy = createPermissionPolicy({
      workspace,
      stateDir: join(folder, 'state'),
      allow: ALLOWED_PROGRAMS.map((program) => `run_command:${program}`),
      deny: ['run_command:touch'],
    });
    const random = randomSource(seed);
    const allowed: string[] = [];
    for (let index = 0; index < count; index++) {
      const text = generateCommand(random);
      const verdict = await policy.decide(commandCheck(workspace, text));
      if (verdict.decision === 'allow') allowed.push(text);
    }
    const runs = runTracedBatch(allowed);
    const disagreements: Disagreement[] = [];
    for (const [index, command] of allowed.entries()) {
      const known = await seenRuns(command);
      const run = runs[index] as BashRun;
      const unseen = run.ran.filter((words) => !known.has(JSON.stringify(words)));
      if (unseen.length > 0 || run.files.length > 0)
        disagreements.push({ command, unseen, files: run.files });
    }
    return { allowed: allowed.length, disagreements };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
