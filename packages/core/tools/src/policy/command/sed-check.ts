/** What a program gets: its name, then its words. */
type Words = readonly string[];

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
