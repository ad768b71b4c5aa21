import { commandName } from './command-name.js';
import { clusterHolds, programRecord } from './programs.js';
import { readOptions } from './wrapper-options.js';

/** A word, or `null` for one known only when it runs (a variable, a substitution, a glob). */
export type Word = string | null;

/** What a command's words run, once the wrappers around it are seen through. */
export type Unwrapped =
  | {
      readonly kind: 'command';
      readonly words: readonly Word[];
      readonly elevated?: boolean;
      /** A wrapper that changes what runs stood around it: no rule for the command allows it. */
      readonly wrapped?: boolean;
      /** The wrappers seen through, outermost first (`sudo`, `env`). */
      readonly via?: readonly string[];
    }
  | {
      readonly kind: 'script';
      /** The script a shell runs, or `null` when it is only known when it runs. */
      readonly script: string | null;
      /** The shell that reads it: `bash`, or another whose grammar is not read here. */
      readonly shell: 'bash' | 'other';
      /** It runs as another user (`sudo bash -c`, `su -c`): so does every part of the script. */
      readonly elevated?: boolean;
    }
  | { readonly kind: 'problem'; readonly problem: string };

/** How `su`, `script` and `runuser` take the command they run through a shell, as one text. */
const SCRIPT_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  su: ['-c', '--command', '--session-command'],
  script: ['-c', '--command'],
  runuser: ['-c', '--command', '--session-command'],
};

/**
 * Splits off the wrappers around a command and returns the command they run, or says why it
 * cannot be known. What makes the command not the one a rule names (`env EDITOR=x`, `env -C
 * dir`) goes to `problems`, and the wrapper is still seen through so deny rules meet the command.
 */
export function unwrap(words: readonly Word[], problems: string[]): Unwrapped {
  let rest = words;
  let elevated = false;
  let wrapped = false;
  const via: string[] = [];
  const found = (words: readonly Word[]): Unwrapped =>
    elevated || wrapped || via.length > 0
      ? { kind: 'command', words, elevated, wrapped, ...(via.length > 0 && { via }) }
      : { kind: 'command', words };
  for (let depth = 0; depth < 16; depth++) {
    const first = rest[0];
    if (first === undefined) return found(rest);
    if (first === null)
      return { kind: 'problem', problem: 'a command name is only known when it runs' };
    const name = commandName(first);
    const record = programRecord(name);
    if (record?.evaluates === true)
      return { kind: 'problem', problem: `\`${name}\` runs text that cannot be checked` };
    if (record?.shell !== undefined) {
      const script = shellScript(rest);
      if (script === undefined) return found(rest);
      if (script.kind === 'problem') return script;
      // `bash --rcfile x -i -c …` runs a start-up file before the script.
      const options = rest.every((word) => word !== null)
        ? record.check?.(rest as readonly string[])
        : undefined;
      if (options !== undefined) problems.push(options);
      return { ...script, shell: record.shell, ...(elevated && { elevated }) };
    }
    const script = scriptWrapper(name, rest, problems);
    if (Array.isArray(script)) {
      rest = script;
      wrapped = true;
      via.push(name);
      continue;
    }
    if (script !== undefined) {
      const asOther = elevated || name === 'su' || name === 'runuser';
      const unwrapped = script as Unwrapped;
      return asOther && unwrapped.kind === 'script' ? { ...unwrapped, elevated: true } : unwrapped;
    }
    const wrapper = record?.wraps;
    if (wrapper === undefined) {
      if (record?.opaque === true)
        return { kind: 'problem', problem: `\`${name}\` runs a command that cannot be checked` };
      return found(rest);
    }
    if (wrapper.pidMode === true && rest.some((word) => word === '-p' || word === '--pid'))
      return found(rest);
    if (record?.elevates === true) elevated = true;
    if (record?.opaque === true) problems.push(`\`${name}\` runs a command that cannot be checked`);
    if (wrapper.addsWords === true)
      problems.push(`\`${name}\` adds words to the command that cannot be checked`);
    if (wrapper.transparent !== true) wrapped = true;
    via.push(name);
    const options = readOptions(name, rest, wrapper, problems);
    if (typeof options !== 'number') return options;
    const index = options;
    let command = rest.slice(index + (wrapper.before ?? 0));
    if (command.length === 0 && wrapper.defaultCommand !== undefined)
      command = [wrapper.defaultCommand];
    if (command.length === 0) {
      // Without a command it is a command of its own (`env` prints every variable): its own
      // words are the part a rule must allow.
      if (wrapper.shellWhenAlone === true)
        return { kind: 'problem', problem: `\`${name}\` with no command opens a shell` };
      via.pop();
      return found(rest);
    }
    rest = command;
  }
  return { kind: 'problem', problem: 'wrappers are nested too deep to check' };
}

/**
 * The script `su -c`, `script -c`, `flock -c` and `watch` run through a shell; `su` and `script`
 * without one open a shell, which no rule can allow. `watch -x` and `flock` without `-c` give
 * the words of the command they run. `undefined` for any other command.
 */
function scriptWrapper(
  name: string,
  words: readonly Word[],
  problems: string[],
): Unwrapped | readonly Word[] | undefined {
  if (name === 'watch') {
    let index = 1;
    for (; index < words.length; index++) {
      const word = words[index] as Word;
      if (word === null)
        return { kind: 'problem', problem: "watch's command is only known when it runs" };
      if (word === '-n' || word === '--interval') index++;
      else if (word === '-x' || word === '--exec') return words.slice(index + 1);
      else if (word === '--') {
        index++;
        break;
      } else if (!word.startsWith('-')) break;
    }
    const command = words.slice(index);
    if (command.some((word) => word === null))
      return { kind: 'problem', problem: "watch's command is only known when it runs" };
    return { kind: 'script', script: command.join(' '), shell: 'other' };
  }
  if (name === 'flock') return flockCommand(words);
  const options = SCRIPT_OPTIONS[name];
  if (options === undefined) return undefined;
  if (name === 'script') problems.push('`script` writes what the command shows to a file');
  for (let index = 1; index < words.length; index++) {
    const word = words[index] as Word;
    if (word === null) break;
    // `-c script`, `--command script`, `--command=script`, or a cluster ending in it (`-lc`).
    if (options.includes(word) || /^-[A-Za-z]+c$/.test(word))
      return { kind: 'script', script: words[index + 1] ?? null, shell: 'other' };
    const joined = options.find((option) => word.startsWith(`${option}=`));
    if (joined !== undefined)
      return { kind: 'script', script: word.slice(joined.length + 1), shell: 'other' };
    if (/^-[A-Za-z]*c[A-Za-z]+$/.test(word))
      return { kind: 'problem', problem: `\`${name}\`'s options cannot be checked` };
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
function flockCommand(words: readonly Word[]): Unwrapped | readonly Word[] {
  let index = 1;
  for (; index < words.length; index++) {
    const word = words[index] as Word;
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
  if ((first === '-c' || first === '--command') && command.length === 2)
    return { kind: 'script', script: command[1] ?? null, shell: 'other' };
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
function shellScript(
  words: readonly Word[],
): { kind: 'script'; script: string | null } | { kind: 'problem'; problem: string } | undefined {
  let command = false;
  let index = 1;
  for (; index < words.length; index++) {
    const word = words[index] as Word;
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
  return { kind: 'script', script: words[index] ?? null };
}
