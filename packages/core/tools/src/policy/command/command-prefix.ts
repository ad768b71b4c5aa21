import { commandName } from './command-name.js';
import { programRecord } from './programs.js';
import type { Word } from './wrappers.js';

/**
 * Whether a word reads back as itself from a rule's text, which is split at white space and
 * holds no control character, and names no variable, no `%` and no `{}` place (`git "" push`
 * must not offer `git `, read back as every subcommand of git).
 */
function keptByRule(word: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a rule must not carry them.
  return word !== '' && !/[\s\u0000-\u001f\u007f$%=]|\{\}/.test(word);
}

/**
 * The prefix "always" remembers for a command's words (`git commit`, `npm test`, `npm run build`,
 * `pnpm exec tsc`, `node build.js`, `docker exec web ls`: as many words as its record says name
 * it; options are never part of it), or `undefined` when it has none.
 */
export function commandPrefix(words: readonly Word[]): string[] | undefined {
  const first = words[0];
  if (first === null || first === undefined || !keptByRule(first)) return undefined;
  const name = commandName(first);
  const record = programRecord(name);
  const second = words[1] ?? '';
  let arity = record?.arity ?? 1;
  if (record?.longer?.includes(second) === true) arity += 1;
  if (record?.inContainer?.includes(second) === true) arity += 1;
  const prefix = [name];
  for (let index = 1; index < arity; index++) {
    const word = words[index];
    // `git -C x push`, or a bare `make`: no prefix says what it runs, and one word would allow
    // every subcommand.
    if (word === null || word === undefined || !keptByRule(word)) return undefined;
    // `python -m pytest`: the module flag names the command; any other option comes too early.
    if (word.startsWith('-') && record?.longer?.includes(word) !== true) return undefined;
    prefix.push(word);
  }
  return prefix;
}
