import type { ProgramRecord } from './program-record.js';
import { changesWhatRuns, setsProblem } from './variables.js';
import type { Unwrapped, Word } from './wrappers.js';

/** Options of wrappers that make the command not the one a rule names, and why. */
const REFUSED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  env: {
    '-C': '`env -C` runs the command in another folder',
    '--chdir': '`env -C` runs the command in another folder',
    '-a': '`env -a` gives the command another name',
    '--argv0': '`env -a` gives the command another name',
  },
  time: { '-o': '`time -o` writes a file', '--output': '`time -o` writes a file' },
  xargs: {
    '-I': '`xargs -I` puts its input into the command',
    '-i': '`xargs -I` puts its input into the command',
    '--replace': '`xargs -I` puts its input into the command',
  },
};

/**
 * Reads a wrapper's options as getopt does: a short option that takes a value takes the rest of
 * its cluster, or the next word (`env -iu echo touch x` unsets `echo` and runs `touch x`); a long
 * one its `=value` or the next word. A long option not named exactly (GNU tools take any
 * unambiguous abbreviation: `env --ch=/`, `time --out=f`) is not read here, and asks. Returns
 * where the command starts, or why it cannot be known.
 */
export function readOptions(
  name: string,
  words: readonly Word[],
  wrapper: NonNullable<ProgramRecord['wraps']>,
  problems: string[],
): number | Unwrapped {
  const refused = REFUSED[name] ?? {};
  const refuse = (option: string): Unwrapped | undefined => {
    if (name === 'env' && (option === '-S' || option === '--split-string'))
      return {
        kind: 'problem',
        problem: '`env -S` splits a string into a command that cannot be checked',
      };
    const why = refused[option];
    if (why !== undefined) problems.push(why);
    return undefined;
  };
  let index = 1;
  for (; index < words.length; index++) {
    const word = words[index] as Word;
    if (word === null)
      return {
        kind: 'problem',
        problem: `the command \`${name}\` runs is only known when it runs`,
      };
    if (word === '--') return index + 1;
    if (name === 'env' && /^[^-=][^=]*=/.test(word)) {
      const variable = word.slice(0, word.indexOf('='));
      if (
        !/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable) ||
        changesWhatRuns(variable, word.slice(variable.length + 1))
      )
        problems.push(setsProblem(variable));
      continue;
    }
    if (name === 'command' && (word === '-v' || word === '-V')) return words.length;
    if (name === 'nice' && /^-\d+$/.test(word)) continue;
    // `env -` is `env -i`.
    if (name === 'env' && word === '-') continue;
    if (!word.startsWith('-') || word === '-') return index;
    if (word.startsWith('--')) {
      const equals = word.indexOf('=');
      const option = equals === -1 ? word : word.slice(0, equals);
      const stop = refuse(option);
      if (stop !== undefined) return stop;
      const exact = wrapper.valueOptions.includes(option) || (wrapper.flags ?? []).includes(option);
      // An abbreviation is asked; for the deny rules it is read as the tool reads it, taking a
      // value where the options it may stand for take one (`nice --adj 5 rm`).
      const takesValue = exact
        ? wrapper.valueOptions.includes(option)
        : wrapper.valueOptions.some((known) => known.startsWith(option));
      if (!exact) problems.push(`\`${name} ${option}\` is not an option read here`);
      if (takesValue && equals === -1) index++;
      continue;
    }
    for (let at = 1; at < word.length; at++) {
      const option = `-${word[at]}`;
      const stop = refuse(option);
      if (stop !== undefined) return stop;
      if (wrapper.valueOptions.includes(option)) {
        if (at === word.length - 1) index++;
        break;
      }
    }
  }
  return index;
}
