// The command lines that the differential test of the policy against bash generates.

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
