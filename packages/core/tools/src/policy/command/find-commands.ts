import type { Word } from './wrappers.js';

/** The tests and actions of GNU find that take a value (`-fprintf` two), by their name. */
const FIND_VALUES = new Set(
  (
    'amin anewer atime cmin cnewer context ctime fls fprint fprint0 fstype gid group ilname ' +
    'iname inum ipath iregex iwholename links lname maxdepth mindepth mmin mtime name newer ' +
    'path perm printf regex regextype samefile size type uid used user wholename xtype ' +
    'files0-from D O'
  )
    .split(' ')
    .map((name) => `-${name}`),
);

function findValues(word: string): number {
  if (word === '-fprintf') return 2;
  if (FIND_VALUES.has(word) || /^-newer[aBcmt][aBcmt]$/.test(word)) return 1;
  return 0;
}

/**
 * The commands `find -exec`, `-execdir`, `-ok` and `-okdir` run, and `find` without them, read
 * as find reads them: the command ends at `;`, or at `+` right after `{}` (any other `+` is one of
 * its words). `{}` is a name known only when it runs; a word holding `{}` among other text (`sh
 * -c "echo {}"`, `s|a|{}|`) puts a name into a script, and `problems` says so.
 */
export function findCommands(words: readonly Word[], problems: string[]): Word[][] {
  const own: Word[] = [];
  const inner: Word[][] = [];
  for (let index = 0; index < words.length; index++) {
    const word = words[index] as Word;
    // A test's value is never an action: `find . -name -exec -o -exec rm x \;` runs `rm x`.
    const values = word === null ? 0 : findValues(word);
    if (values > 0) {
      own.push(...words.slice(index, index + 1 + values));
      index += values;
      continue;
    }
    if (word === '-exec' || word === '-execdir' || word === '-ok' || word === '-okdir') {
      const command: Word[] = [];
      for (index++; index < words.length; index++) {
        const next = words[index] as Word;
        if (next === ';' || (next === '+' && words[index - 1] === '{}')) break;
        if (next !== null && next !== '{}' && next.includes('{}'))
          problems.push('`find` puts a file name into the text of a word, which can be a script');
        command.push(next === null || next.includes('{}') ? null : next);
      }
      inner.push(command);
    } else {
      own.push(word);
    }
  }
  return [own, ...inner];
}
