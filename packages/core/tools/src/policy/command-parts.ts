import {
  EVALUABLE,
  EVALUATING_TYPES,
  evaluationProblem,
  namesProblem,
  SUBSTITUTION,
} from './evaluated-text.js';
import { RecentAnalyses } from './recent-analyses.js';
import { bashParser, type SyntaxNode } from './shell-parser.js';

/** One simple command of a command line, as it would run: its words, wrappers seen through. */
export interface CommandPart {
  /** It runs as another user (through `sudo` or `doas`): deny rules apply, allow rules never. */
  readonly elevated?: boolean;
  /**
   * The words, quotes removed; `null` for a word whose text is only known when it runs (a
   * variable, a substitution, a glob): no rule can match on it.
   */
  readonly words: readonly (string | null)[];
}

/** What a command line runs, as far as it can be known before it runs. */
export interface CommandAnalysis {
  /** Every simple command it would run, nested ones (`$( )`, `bash -c`, `find -exec`) included. */
  readonly parts: readonly CommandPart[];
  /**
   * Why no rule may allow it, if one is: it could not be parsed, a command's name is not plain
   * text, it evaluates text (`eval`, `source`), or a wrapper's command cannot be found. Deny rules
   * still apply to the parts that could be read.
   */
  readonly problem?: string;
  /** It writes to a file through a redirection (`> file`): such a command always asks. */
  readonly writes: boolean;
}

/** Commands that run their arguments as another command, and how to find that command. */
type Unwrapped =
  | {
      readonly kind: 'command';
      readonly words: readonly (string | null)[];
      readonly elevated?: boolean;
    }
  | {
      readonly kind: 'script';
      readonly script: string | null;
      readonly rest: readonly (string | null)[];
      /** It runs as another user (`sudo bash -c`, `su -c`): so does every part of the script. */
      readonly elevated?: boolean;
    }
  | { readonly kind: 'problem'; readonly problem: string };

/** Options of each wrapper that take a value (the value is the next word). */
const WRAPPER_VALUE_OPTIONS: Readonly<Record<string, ReadonlySet<string>>> = {
  env: new Set(['-u', '--unset', '-C', '--chdir']),
  doas: new Set(['-u', '-C']),
  sudo: new Set([
    '-u',
    '--user',
    '-g',
    '--group',
    '-h',
    '--host',
    '-p',
    '--prompt',
    '-C',
    '-D',
    '-r',
    '-t',
    '-T',
    '-U',
  ]),
  nice: new Set(['-n', '--adjustment']),
  timeout: new Set(['-s', '--signal', '-k', '--kill-after']),
  xargs: new Set([
    '-I',
    '-L',
    '-n',
    '-P',
    '-d',
    '-E',
    '-s',
    '-a',
    '--arg-file',
    '--delimiter',
    '--max-args',
    '--max-procs',
    '--max-lines',
    '--replace',
    '--eof',
  ]),
  command: new Set(),
  exec: new Set(['-a']),
  nohup: new Set(),
  time: new Set(['-f', '-o']),
  builtin: new Set(),
  stdbuf: new Set(['-i', '-o', '-e']),
  setsid: new Set(),
  unbuffer: new Set(),
  busybox: new Set(),
  pkexec: new Set(['--user']),
  runuser: new Set(['-u', '--user', '-g', '--group', '-G', '--supp-group']),
  ionice: new Set(['-c', '--class', '-n', '--classdata']),
  chrt: new Set(['-T', '--sched-runtime', '-P', '--sched-period', '-D', '--sched-deadline']),
  taskset: new Set(),
  strace: new Set([
    '-e',
    '-o',
    '--output',
    '-s',
    '--string-limit',
    '-u',
    '--user',
    '-E',
    '--env',
    '-a',
    '-b',
    '-I',
    '-O',
    '-P',
    '-S',
    '-X',
  ]),
};
/**
 * Wrappers that take one word before the command: `timeout 10 cmd`, `chrt 10 cmd`, `taskset 3
 * cmd` (`flock lockfile cmd` is read by `flockCommand`).
 */
const ARGUMENT_BEFORE_COMMAND = new Set(['timeout', 'chrt', 'taskset']);
/** Wrappers that change a running process given by `-p` instead of starting a command. */
const PID_MODE = new Set(['chrt', 'taskset', 'ionice']);
/** Wrappers that run their command as another user: deny rules apply, allow rules never. */
const ELEVATING = new Set(['sudo', 'doas', 'pkexec', 'runuser']);
/**
 * Programs that run a command of their own that these words cannot show (`parallel rm ::: x`,
 * `firejail rm x`, `tmux new 'rm x'`): no rule may allow them, for one naming the program
 * would allow every command it can run.
 */
const OPAQUE_RUNNERS = new Set([
  'parallel',
  'firejail',
  'nsenter',
  'unshare',
  'chroot',
  'sg',
  'newgrp',
  'systemd-run',
  'tmux',
  'screen',
  'expect',
  'coproc',
]);
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh']);
const EVALUATORS = new Set(['eval', 'source', '.']);
/**
 * Builtins that keep text to run later as a command: `trap 'rm x' EXIT`, `bind -x`, `complete
 * -C`, `compgen -W '$(…)'`, `enable -f` (loads code), `hash -p /tmp/x ls` (makes `ls` another
 * program), `mapfile -C 'rm x'`.
 */
function runsText(name: string, words: readonly (string | null)[]): boolean {
  if (name === 'trap' || name === 'bind' || name === 'complete' || name === 'compgen') {
    return words.length > 1;
  }
  if (name === 'enable' || name === 'hash')
    return words.some((word) => word === null || clusterHolds(word, 'fp'));
  if (name === 'mapfile' || name === 'readarray')
    return words.some((word) => word === null || clusterHolds(word, 'C'));
  return false;
}
/**
 * Variables a command may set and still be allowed by a rule: ones no program reads as a
 * command, a path to load from or options to obey. Any other is never allowed by a rule, for
 * no list can name every one that does (`PATH=/tmp npm test` runs the agent's own `npm`,
 * `EDITOR='rm -rf ~' git commit` runs the editor, `JAVA_TOOL_OPTIONS`, `RUSTC_WRAPPER`,
 * `XDG_CONFIG_HOME`, ...). A lowercase name is a shell's own variable, but npm reads
 * `npm_config_*` in any case.
 */
const INERT_VARIABLE =
  /^(?:CI|NODE_ENV|FORCE_COLOR|NO_COLOR|TERM|COLUMNS|LINES|LANG|LANGUAGE|LC_[A-Z]+|TZ|DEBUG|RUST_LOG|RUST_BACKTRACE|GOOS|GOARCH|CGO_ENABLED|PYTHONUNBUFFERED|PYTHONDONTWRITEBYTECODE|PYTHONIOENCODING|NODE_NO_WARNINGS)$/;

/** Why no rule may allow a command that sets `variable`. */
function setsProblem(variable: string): string {
  return `it sets ${variable}, which can change what the command runs`;
}

/**
 * Whether `word` is a cluster of short options holding one of `letters` before any further
 * `-` (`-xc` holds `c`, as `-c` does; `--chdir` holds none): as a program's getopt reads it.
 */
function clusterHolds(word: string | null, letters: string): boolean {
  if (word === null || word[0] !== '-') return false;
  for (let index = 1; index < word.length && word[index] !== '-'; index++) {
    if (letters.includes(word[index] as string)) return true;
  }
  return false;
}

/** Whether setting `variable` may change what a command runs (see `INERT_VARIABLE`). */
function changesWhatRuns(variable: string): boolean {
  if (INERT_VARIABLE.test(variable)) return false;
  return !/^[a-z_][a-z0-9_]*$/.test(variable) || /^npm_config_/i.test(variable);
}

/**
 * A program right in a folder of the system's: `/bin/rm` is `rm`. Right in it: `/usr/bin/../../tmp/rm`
 * starts the same way and runs another program.
 */
const SYSTEM_PROGRAM = /^\/(?:usr\/(?:local\/)?)?s?bin\/[^/]+$/;

/** The name a command is known by: `/bin/rm` and `/usr/bin/rm` are `rm`; `./rm` stays itself. */
export function commandName(word: string): string {
  return SYSTEM_PROGRAM.test(word) ? word.slice(word.lastIndexOf('/') + 1) : word;
}

/** Removes the backslashes of an unquoted word (`\rm` is `rm`). */
function unescapeWord(text: string): string {
  // Most words hold no backslash: nothing to remove, and no new string to make.
  if (!text.includes('\\')) return text;
  return text.replace(/\\\n/g, '').replace(/\\(.)/gs, '$1');
}

/** Whether an unquoted word is expanded when it runs: a glob (`*.ts`), a brace list (`{a,b}`, `{1..3}`). */
function isExpanded(text: string): boolean {
  const bare = text.includes('\\') ? text.replace(/\\./g, '') : text;
  return /[*?[]/.test(bare) || /\{[^}]*(,|\.\.)[^}]*\}/.test(bare);
}

/**
 * The text a word node stands for, or `null` when it is only known at run time. `type` (and a
 * word's `text`) are the node's, read by the caller: each read is a call into the parser's
 * WebAssembly.
 */
function literal(node: SyntaxNode, type: string = node.type, text?: string): string | null {
  switch (type) {
    case 'word': {
      // An unquoted glob or brace expansion is expanded at run time.
      const word = text ?? node.text;
      return isExpanded(word) ? null : unescapeWord(word);
    }
    case 'number':
      return node.text;
    case 'raw_string':
      return node.text.slice(1, -1);
    case 'string': {
      for (const child of node.namedChildren) if (child?.type !== 'string_content') return null;
      return node.text
        .slice(1, -1)
        .replace(/\\([$`"\\\n])/g, (_, character: string) => (character === '\n' ? '' : character));
    }
    case 'concatenation': {
      let text = '';
      for (const child of node.namedChildren) {
        const part = child === null ? null : literal(child);
        if (part === null) return null;
        text += part;
      }
      return text;
    }
    default:
      return null;
  }
}

/**
 * Splits off a wrapper's options and returns the command it runs, or says why it cannot. What
 * makes the command not the one a rule names (`env EDITOR=x`, `env -C dir`) goes to `problems`
 * and the wrapper is still seen through, so that deny rules meet the command inside.
 */
function unwrap(words: readonly (string | null)[], problems: string[]): Unwrapped {
  let rest = words;
  let elevated = false;
  const found = (words: readonly (string | null)[]): Unwrapped =>
    elevated ? { kind: 'command', words, elevated } : { kind: 'command', words };
  for (let depth = 0; depth < 16; depth++) {
    const first = rest[0];
    if (first === undefined) return found(rest);
    if (first === null)
      return { kind: 'problem', problem: 'a command name is only known when it runs' };
    const name = commandName(first);
    if (runsText(name, rest)) {
      return {
        kind: 'problem',
        problem: `\`${name}\` runs text that cannot be checked before it runs`,
      };
    }
    if (EVALUATORS.has(name)) {
      return {
        kind: 'problem',
        problem: `\`${name}\` runs text that cannot be checked before it runs`,
      };
    }
    if (SHELLS.has(name)) {
      const shell = shellScript(rest);
      return shell === undefined ? found(rest) : asUser(shell, elevated);
    }
    const script = scriptWrapper(name, rest, problems);
    if (Array.isArray(script)) {
      rest = script;
      continue;
    }
    if (script !== undefined) {
      return asUser(script as Unwrapped, elevated || name === 'su' || name === 'runuser');
    }
    if (OPAQUE_RUNNERS.has(name)) {
      return { kind: 'problem', problem: `\`${name}\` runs a command that cannot be checked` };
    }
    const options = WRAPPER_VALUE_OPTIONS[name];
    if (options === undefined) return found(rest);
    // `chrt -p 10 1234`, `taskset -p 3 1234`, `ionice -p 1`: set on a running process, no command.
    if (PID_MODE.has(name) && rest.some((word) => word === '-p' || word === '--pid')) {
      return found(rest);
    }
    if (ELEVATING.has(name)) elevated = true;
    // `strace` starts its command, whose words follow (so deny rules meet it), but it can also
    // write its trace or attach to another process: asked.
    if (name === 'strace') problems.push('`strace` runs a command that cannot be checked');
    let index = 1;
    for (; index < rest.length; index++) {
      const word = rest[index] as string | null;
      if (word === null)
        return {
          kind: 'problem',
          problem: `the command \`${name}\` runs is only known when it runs`,
        };
      if (word === '--') {
        index++;
        break;
      }
      if (name === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) {
        const variable = word.slice(0, word.indexOf('='));
        if (changesWhatRuns(variable)) problems.push(setsProblem(variable));
        continue;
      }
      if (name === 'env' && (clusterHolds(word, 'S') || word.startsWith('--split-string'))) {
        return {
          kind: 'problem',
          problem: '`env -S` splits a string into a command that cannot be checked',
        };
      }
      // `env -C dir`: the command runs elsewhere than the folder the policy checked.
      if (name === 'env' && (clusterHolds(word, 'C') || word.startsWith('--chdir')))
        problems.push('`env -C` runs the command in another folder');
      // `time -o file` (GNU time, not the shell's keyword) writes its report to a file.
      if (name === 'time' && (clusterHolds(word, 'o') || word.startsWith('--output')))
        problems.push('`time -o` writes a file');
      if (name === 'command' && (word === '-v' || word === '-V'))
        return { kind: 'command', words: [] };
      if (name === 'nice' && /^-\d+$/.test(word)) continue;
      if (!word.startsWith('-') || word === '-') break;
      if (options.has(word)) index++;
    }
    let command = rest.slice(index);
    // `timeout` takes its duration before the command, `taskset` its mask, `flock` its file.
    if (ARGUMENT_BEFORE_COMMAND.has(name)) command = command.slice(1);
    // `xargs` with no command runs `echo`.
    if (name === 'xargs' && command.length === 0) return { kind: 'command', words: ['echo'] };
    if (command.length === 0) {
      return name === 'sudo' || name === 'exec'
        ? { kind: 'problem', problem: `\`${name}\` with no command opens a shell` }
        : { kind: 'command', words: [] };
    }
    rest = command;
  }
  return { kind: 'problem', problem: 'wrappers are nested too deep to check' };
}

/** A script found under a wrapper that runs as another user runs as that user too. */
function asUser(unwrapped: Unwrapped, elevated: boolean): Unwrapped {
  return elevated && unwrapped.kind === 'script' ? { ...unwrapped, elevated } : unwrapped;
}

/** How `su`, `script` and `runuser` take the command they run through a shell, as one text. */
const SCRIPT_OPTIONS: Readonly<Record<string, ReadonlySet<string>>> = {
  su: new Set(['-c', '--command', '--session-command']),
  script: new Set(['-c', '--command']),
  runuser: new Set(['-c', '--command', '--session-command']),
};

/**
 * The script `su -c`, `script -c` and `watch` run through a shell, checked as a command line of
 * its own; `su` and `script` without one open a shell, which no rule can allow. `watch -x`
 * gives the words of the command it runs, to be read as any command's. `undefined` for any
 * other command.
 */
function scriptWrapper(
  name: string,
  words: readonly (string | null)[],
  problems: string[],
): Unwrapped | readonly (string | null)[] | undefined {
  if (name === 'watch') {
    let index = 1;
    for (; index < words.length; index++) {
      const word = words[index] as string | null;
      if (word === null)
        return { kind: 'problem', problem: "watch's command is only known when it runs" };
      if (word === '-n' || word === '--interval') index++;
      else if (word === '-x' || word === '--exec') {
        // The words are the command itself, run without a shell.
        return words.slice(index + 1);
      } else if (word === '--') {
        index++;
        break;
      } else if (!word.startsWith('-')) break;
    }
    const command = words.slice(index);
    if (command.some((word) => word === null)) {
      return { kind: 'problem', problem: "watch's command is only known when it runs" };
    }
    return { kind: 'script', script: command.join(' '), rest: [] };
  }
  if (name === 'flock') return flockCommand(words);
  const options = SCRIPT_OPTIONS[name];
  if (options === undefined) return undefined;
  // `script` writes all it shows to a file (`typescript`, or the one named).
  if (name === 'script') problems.push('`script` writes what the command shows to a file');
  for (let index = 1; index < words.length; index++) {
    const word = words[index] as string | null;
    if (word === null) break;
    // `-c script`, `--command script`, `--command=script`, or a cluster ending in it (`-lc`).
    if (options.has(word) || /^-[A-Za-z]+c$/.test(word)) {
      const script = words[index + 1];
      return { kind: 'script', script: script ?? null, rest: [] };
    }
    const joined = [...options].find((option) => word.startsWith(`${option}=`));
    if (joined !== undefined)
      return { kind: 'script', script: word.slice(joined.length + 1), rest: [] };
    if (/^-[A-Za-z]*c[A-Za-z]+$/.test(word)) {
      return { kind: 'problem', problem: `\`${name}\`'s options cannot be checked` };
    }
  }
  // `runuser -u bob -- cmd`: a command of its own words, read as any wrapper's.
  if (name === 'runuser') return undefined;
  return { kind: 'problem', problem: `\`${name}\` without a command opens a shell` };
}

/** Options of `flock` that take a value (the value is the next word). */
const FLOCK_VALUE_OPTIONS = new Set(['-w', '--wait', '--timeout', '-E', '--conflict-exit-code']);

/**
 * What `flock` runs, read as util-linux reads it: its options, then the lock file, then either
 * `-c` and exactly one script, or the command's own words (`flock f rm x -- -c ls` runs `rm`).
 */
function flockCommand(words: readonly (string | null)[]): Unwrapped | readonly (string | null)[] {
  let index = 1;
  for (; index < words.length; index++) {
    const word = words[index] as string | null;
    if (word === null)
      return { kind: 'problem', problem: "flock's options are only known when it runs" };
    if (word === '--') {
      index++;
      break;
    }
    if (!word.startsWith('-') || word === '-') break;
    if (FLOCK_VALUE_OPTIONS.has(word)) index++;
  }
  const command = words.slice(index + 1);
  const first = command[0];
  if ((first === '-c' || first === '--command') && command.length === 2) {
    return { kind: 'script', script: command[1] ?? null, rest: [] };
  }
  return command;
}

/** Options of a shell that take a value (the value is the next word). */
const SHELL_VALUE_OPTIONS = new Set(['-o', '+o', '-O', '+O', '--rcfile', '--init-file']);

/**
 * The script a shell's words run with `-c`, read as the shell reads its options: `-c` may be in
 * a cluster (`-xc`, `-ce`), after options with values (`-O extglob`, `-o posix`) or before
 * `--`, and the script is the first word after the options. `undefined`: no `-c` (a script
 * file, or a shell reading its input).
 */
function shellScript(words: readonly (string | null)[]): Unwrapped | undefined {
  let command = false;
  let index = 1;
  for (; index < words.length; index++) {
    const word = words[index] as string | null;
    if (word === null)
      return { kind: 'problem', problem: "a shell's options are only known when it runs" };
    if (word === '--' || word === '-') {
      index++;
      break;
    }
    if (SHELL_VALUE_OPTIONS.has(word)) {
      index++;
      continue;
    }
    if (word.startsWith('--')) continue;
    if (!/^[-+]./.test(word)) break;
    if (clusterHolds(word, 'c')) command = true;
    // A cluster ending in `o` or `O` takes the next word as its value (`-eo pipefail`).
    if (/^[-+][A-Za-z]*[oO]$/.test(word)) index++;
  }
  if (!command) return undefined;
  return { kind: 'script', script: words[index] ?? null, rest: words.slice(index + 1) };
}

/** The commands `find -exec`, `-execdir`, `-ok` and `-okdir` run, and `find` without them. */
function findCommands(words: readonly (string | null)[]): (readonly (string | null)[])[] {
  const own: (string | null)[] = [];
  const inner: (string | null)[][] = [];
  for (let index = 0; index < words.length; index++) {
    const word = words[index] as string | null;
    if (word === '-exec' || word === '-execdir' || word === '-ok' || word === '-okdir') {
      const command: (string | null)[] = [];
      for (index++; index < words.length; index++) {
        const next = words[index] as string | null;
        if (next === ';' || next === '+') break;
        command.push(next);
      }
      inner.push(command);
    } else {
      own.push(word);
    }
  }
  return [own, ...inner];
}

/** Whether a redirection writes to a file (not a file descriptor, not /dev/null). */
function writesFile(node: SyntaxNode): boolean {
  if (node.type !== 'file_redirect') return false;
  const operator =
    node.children.find((child) => child !== null && /[<>]/.test(child.type))?.type ?? '';
  if (!operator.includes('>')) return false;
  const destination = node.childForFieldName('destination');
  const target = destination === null ? null : literal(destination);
  if (target === '/dev/null') return false;
  // `>&2`, `2>&1`: a file descriptor, not a file.
  if (operator.endsWith('&') && target !== null && /^\d+-?$|^-$/.test(target)) return false;
  return true;
}

/**
 * Whether removing the line continuations of a word or a double-quoted string makes a
 * substitution or an expansion of it (`"$\<newline>(rm x)"` runs `rm x`): the parser read the
 * text as it was written, bash reads it joined.
 */
function joinsExpansion(text: string): boolean {
  return text.includes('\\\n') && expandsJoined(text);
}

/**
 * Whether text bash expands holds, once its line continuations are joined, a substitution or an
 * expansion that can evaluate a name: a command may run from it.
 */
function expandsJoined(text: string): boolean {
  const joined = text.replace(/\\\n/g, '');
  return SUBSTITUTION.test(joined) || EVALUABLE.test(joined);
}

interface Collected {
  parts: CommandPart[];
  problems: string[];
  writes: boolean;
  /** Command lines still to read: `bash -c` scripts and the like, and whether they run as another user. */
  scripts: { text: string; elevated: boolean }[];
  /** The command line being read runs as another user: so does each of its parts. */
  elevated: boolean;
  /**
   * The tree being walked has an error somewhere. Only then can a node in it be missing, so only
   * then is each node asked (a call into the parser's WebAssembly per node).
   */
  broken: boolean;
}

/**
 * A variable that changes what runs, set by a builtin without an assignment: `read PATH`,
 * `mapfile`, `printf -v PATH …`, `getopts x PATH`.
 */
function variableSet(
  name: string | undefined,
  words: readonly (string | null)[],
): string | undefined {
  const sensitive = (word: string | null | undefined): word is string =>
    typeof word === 'string' && /^[A-Za-z_]\w*$/.test(word) && changesWhatRuns(word);
  if (name === 'read' || name === 'mapfile' || name === 'readarray') {
    return words.slice(1).find(sensitive);
  }
  if (name === 'printf') {
    const index = words.indexOf('-v');
    const target = index === -1 ? undefined : words[index + 1];
    return sensitive(target) ? target : undefined;
  }
  if (name === 'getopts') return sensitive(words[2]) ? (words[2] as string) : undefined;
  return undefined;
}

/** Options by which `find` deletes or writes files, and `sed` edits them in place. */
const FIND_WRITES = new Set(['-delete', '-fprint', '-fprint0', '-fprintf', '-fls']);

/** The option by which a command that mostly reads changes files, if it has one. */
function writingOption(
  name: string | undefined,
  words: readonly (string | null)[],
): string | undefined {
  if (name === 'find')
    return words.find((word) => word !== null && FIND_WRITES.has(word)) ?? undefined;
  if (name === 'sed') {
    const option = words.find(
      (word, index) =>
        index > 0 &&
        word !== null &&
        (word === '--in-place' || word.startsWith('--in-place=') || clusterHolds(word, 'i')),
    );
    return option ?? undefined;
  }
  return undefined;
}

/** `elevated`: the command runs as another user already (the command of `sudo find -exec`). */
function addCommand(
  words: readonly (string | null)[],
  collected: Collected,
  asOther = collected.elevated,
): void {
  const unwrapped = unwrap(words, collected.problems);
  if (unwrapped.kind === 'problem') {
    collected.problems.push(unwrapped.problem);
    // What could be read still meets the deny rules.
    if (words.length > 0) collected.parts.push(asOther ? { words, elevated: true } : { words });
    return;
  }
  if (unwrapped.kind === 'script') {
    if (unwrapped.script === null)
      collected.problems.push('the script of `sh -c` is only known when it runs');
    else
      collected.scripts.push({
        text: unwrapped.script,
        elevated: asOther || unwrapped.elevated === true,
      });
    return;
  }
  if (unwrapped.words.length === 0) return;
  const name = unwrapped.words[0];
  const known = name === null || name === undefined ? undefined : commandName(name);
  // Most commands are known by the name they were given: their words need no copy.
  const named =
    known === undefined || known === name ? unwrapped.words : [known, ...unwrapped.words.slice(1)];
  const elevated = asOther || unwrapped.elevated === true ? { elevated: true } : {};
  const names = namesProblem(named);
  if (names !== undefined) collected.problems.push(names);
  const set = variableSet(known, named);
  if (set !== undefined) {
    collected.problems.push(setsProblem(set));
  }
  // What a rule for the tool, offered for a use that reads (`find . -name x`, `sed s/a/b/ f`),
  // must not allow: deleting or writing files through its own options.
  const writer = writingOption(known, named);
  if (writer !== undefined) collected.problems.push(`\`${known} ${writer}\` changes files`);
  if (known === 'find') {
    const [own, ...inner] = findCommands(named);
    collected.parts.push({ words: own as (string | null)[], ...elevated });
    for (const command of inner) addCommand(command, collected, elevated.elevated === true);
    return;
  }
  collected.parts.push({ words: named, ...elevated });
}

/**
 * Lists the parts of `node` and of everything under it. Each node's type (and a word's text) is
 * read once, by its parent, and handed down: each read is a call into the parser's WebAssembly,
 * and reading them again for each question asked of a node was most of what a long command
 * took to check.
 */
function visit(node: SyntaxNode, type: string, collected: Collected, text?: string): void {
  if (type === 'ERROR' || (collected.broken && node.isMissing)) {
    collected.problems.push('the command cannot be parsed as shell');
    return;
  }
  if (type.endsWith('_redirect') && writesFile(node)) collected.writes = true;
  if (EVALUATING_TYPES.has(type)) {
    const evaluated = evaluationProblem(node, type);
    if (evaluated !== undefined) collected.problems.push(evaluated);
  }
  if (type === 'word') {
    const word = text ?? node.text;
    // An unquoted word cannot hold a new line, an operator or a substitution: the parser read
    // the line wrong (and bash would run the substitution).
    if (/(^|[^\\])[\n;&|]/.test(word) || SUBSTITUTION.test(word) || joinsExpansion(word)) {
      collected.problems.push('the command cannot be parsed as shell');
    }
  }
  if (type === 'string' && joinsExpansion(node.text)) {
    collected.problems.push('the command cannot be parsed as shell');
  }
  if (type === 'variable_assignment' || type === 'for_statement' || type === 'select_statement') {
    // `VAR=x`, and the variable a loop sets (`for PATH in /tmp/x; do npm test; done`).
    const field = type === 'variable_assignment' ? 'name' : 'variable';
    const variable = node.childForFieldName(field)?.text ?? '';
    if (changesWhatRuns(variable)) {
      collected.problems.push(setsProblem(variable));
    }
  }
  const children = node.namedChildren;
  const types = children.map((child) => child?.type ?? '');
  const texts: (string | undefined)[] = [];
  if (type === 'command') {
    const words: (string | null)[] = [];
    children.forEach((child, index) => {
      const childType = types[index] as string;
      if (child === null) return;
      if (childType === 'command_name') {
        const name = child.firstNamedChild;
        words.push(name === null ? null : literal(name));
      } else if (childType === 'variable_assignment' || childType.endsWith('_redirect')) {
        // `VAR=x cmd`: the assignment only sets the command's environment.
      } else if (words.length > 0) {
        if (childType === 'word') texts[index] = child.text;
        words.push(literal(child, childType, texts[index]));
      }
    });
    addCommand(words, collected);
  } else if (type === 'declaration_command' || type === 'unset_command') {
    const keyword = node.child(0)?.text;
    if (keyword !== undefined) collected.parts.push({ words: [keyword] });
    // Their arguments are names (`unset 'a[$(rm y)]'` runs `rm y`), seen as the words they are.
    const words: (string | null)[] = [keyword ?? null];
    children.forEach((child, index) => {
      if (child === null) return;
      const childType = types[index] as string;
      if (childType === 'variable_assignment') {
        words.push(child.childForFieldName('name')?.text ?? null);
      } else {
        words.push(childType === 'variable_name' ? child.text : literal(child, childType));
      }
    });
    const names = namesProblem(words);
    if (names !== undefined) collected.problems.push(names);
  }
  // Bash expands a heredoc's body when its delimiter is unquoted, and the parser misses some of
  // it: every backtick, and all of a `<<-` body whose lines start with a tab. A body holding a
  // substitution, or an expansion that can evaluate a name (`$[ ]`, `$(( ))`, `${ }`), asks.
  if (type === 'heredoc_redirect') {
    const start = children[types.indexOf('heredoc_start')]?.text ?? '';
    const body = children[types.indexOf('heredoc_body')]?.text ?? '';
    if (!/['"\\]/.test(start) && expandsJoined(body)) {
      collected.problems.push('a command in a heredoc cannot be checked before it runs');
    }
  }
  // `$(< file)` is `$(cat file)`, read without a command: a rule for `cat` decides it, not one for
  // the command it is an argument of (`echo "$(< ~/.ssh/id_rsa)"` is no `echo`).
  if (type === 'command_substitution' && types[0] === 'file_redirect') {
    const destination = children[0]?.childForFieldName('destination');
    collected.parts.push({
      words: [
        'cat',
        destination === null || destination === undefined ? null : literal(destination),
      ],
    });
  }
  if (type === 'command_substitution') {
    const substitution = node.text;
    // Inside backticks bash removes the backslash before `, $ and \ and then parses what is
    // left: `echo \`rm x\`` in backticks runs `rm x`, which the parser reads as two words.
    if (substitution.startsWith('`') && /\\[`$\\]/.test(substitution)) {
      collected.scripts.push({
        text: substitution.slice(1, -1).replace(/\\([`$\\])/g, '$1'),
        elevated: collected.elevated,
      });
      return;
    }
  }
  // Substitutions, arguments and bodies hold commands of their own: every one is a part.
  children.forEach((child, index) => {
    if (child !== null) visit(child, types[index] as string, collected, texts[index]);
  });
}

/** Longest command line that is parsed; a longer one always asks. */
const LONGEST_COMMAND = 100_000;
/** How deep `bash -c` may nest before the command always asks. */
const DEEPEST_SCRIPT = 8;
/**
 * The analyses kept: 64 at most, weighing 4 MiB in all by `heapWeight`. Measured, they held at
 * most 3.3 MiB of heap, whatever the commands: long ones, or many tiny parts (`a;a;a;…`, whose
 * analysis holds about 250 bytes a part, over a hundred times its characters).
 */
const recent = new RecentAnalyses<CommandAnalysis>(64, 4 * 1024 * 1024);

/** What an analysis and its text hold in the heap, in bytes, about (measured, rounded up). */
function heapWeight(command: string, analysis: CommandAnalysis): number {
  let words = 0;
  for (const part of analysis.parts) words += part.words.length;
  return 2 * command.length + 256 * analysis.parts.length + 32 * words;
}

/**
 * Parses a command line with a real Bash parser and lists every simple command it would run:
 * each part of `&&`, `||`, `;`, `|`, `&`, new lines, subshells and blocks, every `$( )` and
 * backtick, the script of `bash -c`, the command of `find -exec`; wrappers (`env`, `VAR=1`,
 * `sudo`, `nice`, `timeout`, `xargs`, `command`, `exec`, `nohup`, `time`, `/bin/…`, `\\cmd`)
 * seen through. What cannot be known before it runs is said in `problem`.
 */
export async function analyseCommand(command: string): Promise<CommandAnalysis> {
  const known = recent.get(command);
  if (known !== undefined) return known;
  const analysis = frozen(await analyse(command));
  // One too long to parse costs nothing to analyse again: it takes no one else's place.
  if (command.length <= LONGEST_COMMAND)
    recent.set(command, analysis, heapWeight(command, analysis));
  return analysis;
}

/** The analysis, frozen through: callers that analyse a recent text are handed the same one. */
function frozen(analysis: CommandAnalysis): CommandAnalysis {
  for (const part of analysis.parts) {
    Object.freeze(part.words);
    Object.freeze(part);
  }
  Object.freeze(analysis.parts);
  return Object.freeze(analysis);
}

async function analyse(command: string): Promise<CommandAnalysis> {
  if (command.length > LONGEST_COMMAND) {
    return { parts: [], problem: 'the command is too long to check', writes: false };
  }
  const parser = await bashParser();
  const collected: Collected = {
    parts: [],
    problems: [],
    writes: false,
    scripts: [{ text: command, elevated: false }],
    elevated: false,
    broken: false,
  };
  for (let depth = 0; collected.scripts.length > 0; depth++) {
    if (depth > DEEPEST_SCRIPT) {
      collected.problems.push('`bash -c` is nested too deep to check');
      break;
    }
    const scripts = collected.scripts.splice(0);
    for (const script of scripts) {
      collected.elevated = script.elevated;
      const tree = parser.parse(script.text);
      if (tree === null) {
        collected.problems.push('the command cannot be parsed as shell');
        continue;
      }
      try {
        const root = tree.rootNode;
        collected.broken = root.hasError;
        if (collected.broken) collected.problems.push('the command cannot be parsed as shell');
        visit(root, root.type, collected);
      } finally {
        tree.delete();
      }
    }
  }
  const [problem] = collected.problems;
  return {
    parts: collected.parts,
    ...(problem !== undefined && { problem }),
    writes: collected.writes,
  };
}
