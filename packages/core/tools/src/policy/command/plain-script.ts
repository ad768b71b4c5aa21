/**
 * The shape of command line a rule may allow, read by a reader of its own that accepts only what
 * it can read exactly as bash does, and refuses everything else (fail closed). The parser the
 * deny rules use (tree-sitter-bash) and bash read some text differently: a `\` before a space, a
 * carriage return, a line continuation, `$'…'` made the command bash ran differ from the parts
 * the policy checked. This reader takes none of those, so an allow never rests on that parser.
 *
 * A plain script is simple commands joined by `&&`, `||`, `;`, `|` and new lines, whose words are
 * unquoted text from a small set of characters, `'…'`, `"…"` without `$` or backticks, and `\`
 * before a printable character; with `VAR=value` before a command, and the redirections
 * `N>&M`, `N>/dev/null` (also `>>` and `&>`) and `< file`. Everything else is not plain: every
 * expansion, substitution, glob, brace list, tilde, comment, heredoc, subshell, block, function,
 * background job, reserved word, control character, line continuation and unquoted non-ASCII.
 */

import { readDoubleQuoted, readSingleQuoted } from './plain-quotes.js';

/** One simple command of a plain script. */
export interface PlainCommand {
  /** `NAME=value` words before the command, in order. */
  readonly assignments: readonly (readonly [name: string, value: string])[];
  /** Its words, quotes and escapes removed. Never empty. */
  readonly words: readonly string[];
}

export type PlainScript =
  | { readonly plain: true; readonly commands: readonly PlainCommand[] }
  | { readonly plain: false; readonly problem: string };

/** Characters an unquoted word may hold as they are, by their code (ASCII only). */
const WORD = new Uint8Array(128);
for (const character of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-./:=@%+,^]')
  WORD[character.charCodeAt(0)] = 1;
/** The names bash reads as reserved words in a command's place. */
const RESERVED = new Set([
  'case',
  'coproc',
  'do',
  'done',
  'elif',
  'else',
  'esac',
  'fi',
  'for',
  'function',
  'if',
  'in',
  'select',
  'then',
  'time',
  'until',
  'while',
]);
/** `NAME=value`, and `NAME+=value` (bash appends): both set the variable. */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

const NOT_PLAIN = (why: string): PlainScript => ({ plain: false, problem: why });

/** Options of `readPlainScript`. */
export interface PlainScriptOptions {
  /** Whether non-ASCII text inside quotes is read as bash reads it (a UTF-8 or C locale). */
  readonly multibyte: boolean;
  /** Whether `&>` is a redirection (bash), or `&` then `>` (a POSIX shell). Default true. */
  readonly ampersandRedirect?: boolean;
}

/**
 * Reads `text` as a plain script, in one pass (linear in its length), or says why it is not one.
 * The words are exactly those bash passes to each command.
 */
export function readPlainScript(text: string, options: PlainScriptOptions): PlainScript {
  const { multibyte } = options;
  const commands: PlainCommand[] = [];
  let words: string[] = [];
  let assignments: [string, string][] = [];
  /** The word being read, and whether any of it was quoted (a quoted word may be empty). */
  let word = '';
  let inWord = false;
  let quotedName = false;
  /** Where the raw text of the word being read starts (to tell an assignment). */
  let wordStart = 0;
  /** A redirection waits for its target word: only `/dev/null` (`>`) or any plain word (`<`). */
  let target: 'null' | 'file' | undefined;
  /** The last thing read was an operator that needs a command after it. */
  let needsCommand = false;
  /** The command being read has a redirection. */
  let redirected = false;
  let index = 0;

  const endWord = (): string | undefined => {
    if (!inWord) return undefined;
    inWord = false;
    if (target !== undefined) {
      const wanted = target;
      target = undefined;
      if (wanted === 'null' && (word !== '/dev/null' || text.slice(wordStart, index) !== word))
        return 'it writes to a file through a redirection';
      // bash opens `/dev/tcp/host/port` (and `/dev/udp/…`, `/dev/fd/N`) itself: a connection.
      if (wanted === 'file' && word.startsWith('/dev/') && word !== '/dev/null')
        return 'a redirection opens a device or a connection';
      word = '';
      quotedName = false;
      return undefined;
    }
    const raw = words.length === 0 ? text.slice(wordStart, index) : '';
    if (words.length === 0 && ASSIGNMENT.test(raw)) {
      const equals = raw.indexOf('=');
      const name = raw.slice(0, raw[equals - 1] === '+' ? equals - 1 : equals);
      assignments.push([name, word.slice(equals + 1)]);
    } else {
      if (words.length === 0 && !quotedName && RESERVED.has(word))
        return `\`${word}\` is a reserved word of the shell`;
      words.push(word);
    }
    word = '';
    quotedName = false;
    return undefined;
  };
  const endCommand = (operator: string | undefined): string | undefined => {
    if (target !== undefined) return 'a redirection has no target';
    if (words.length === 0) {
      if (assignments.length > 0) return 'it sets a variable of the shell';
      if (redirected) return 'a redirection has no command';
      // A new line may follow `&&`, `||` and `|` before their command, or stand alone.
      if (operator === '\n') return undefined;
      if (operator === undefined)
        return needsCommand ? 'an operator has no command after it' : undefined;
      return 'an operator has no command before it';
    }
    commands.push({ assignments, words });
    words = [];
    assignments = [];
    redirected = false;
    needsCommand = operator === '&&' || operator === '||' || operator === '|';
    return undefined;
  };
  const startWord = (): void => {
    if (!inWord) {
      inWord = true;
      wordStart = index;
      word = '';
    }
  };

  while (index < text.length) {
    const character = text[index] as string;
    const code = character.charCodeAt(0);
    if (code === 0x20 || code === 0x09) {
      const problem = endWord();
      if (problem !== undefined) return NOT_PLAIN(problem);
      index++;
      continue;
    }
    if (character === '\n' || character === ';' || character === '|' || character === '&') {
      const problem = endWord();
      if (problem !== undefined) return NOT_PLAIN(problem);
      let operator = character;
      if (character === '&') {
        const next = text[index + 1];
        if (next === '&') operator = '&&';
        else if (next === '>' && options.ampersandRedirect !== false) {
          // `&>/dev/null`, `&>>/dev/null`: both outputs thrown away.
          index += text[index + 2] === '>' ? 3 : 2;
          target = 'null';
          redirected = true;
          continue;
        } else return NOT_PLAIN('it runs a command in the background');
      } else if (character === '|') {
        const next = text[index + 1];
        if (next === '|') operator = '||';
        else if (next === '&') return NOT_PLAIN('`|&` is not read here');
      } else if (character === ';' && (text[index + 1] === ';' || text[index + 1] === '&')) {
        return NOT_PLAIN('`;;` belongs to a `case`');
      }
      const ended = endCommand(operator);
      if (ended !== undefined) return NOT_PLAIN(ended);
      index += operator.length;
      continue;
    }
    if (character === '>' || character === '<') {
      // A word of digits right before it is the file descriptor; any other word ends here.
      if (inWord && !(/^\d+$/.test(word) && text.slice(wordStart, index) === word)) {
        const problem = endWord();
        if (problem !== undefined) return NOT_PLAIN(problem);
      } else {
        inWord = false;
        word = '';
      }
      if (target !== undefined) return NOT_PLAIN('a redirection has no target');
      redirected = true;
      const next = text[index + 1];
      if (character === '>' && next === '&') {
        // `N>&M` or `N>&-`: onto another descriptor, or closed.
        const descriptor = /^(?:\d+|-)(?=[\s;&|<>]|$)/.exec(text.slice(index + 2, index + 12));
        if (descriptor === null) return NOT_PLAIN('it writes to a file through a redirection');
        index += 2 + descriptor[0].length;
        continue;
      }
      if (character === '<' && next === '&') {
        const descriptor = /^\d+(?=[\s;&|<>]|$)/.exec(text.slice(index + 2, index + 12));
        if (descriptor === null) return NOT_PLAIN('a redirection is not read here');
        index += 2 + descriptor[0].length;
        continue;
      }
      if (character === '<' && (next === '<' || next === '>' || next === '('))
        return NOT_PLAIN('a heredoc or a read-write redirection is not read here');
      if (character === '>' && (next === '|' || next === '('))
        return NOT_PLAIN('it writes to a file through a redirection');
      index += character === '>' && next === '>' ? 2 : 1;
      target = character === '>' ? 'null' : 'file';
      continue;
    }
    if (character === "'" || character === '"') {
      startWord();
      if (words.length === 0) quotedName = true;
      const read = (character === "'" ? readSingleQuoted : readDoubleQuoted)(
        text,
        index,
        multibyte,
      );
      if (read.end === undefined) return NOT_PLAIN(read.problem);
      word += read.text;
      index = read.end;
      continue;
    }
    if (character === '\\') {
      const escaped = text.charCodeAt(index + 1);
      if (escaped === 0x0a) return NOT_PLAIN('it continues a line with `\\`');
      if (!(escaped >= 0x20 && escaped < 0x7f))
        return NOT_PLAIN('a `\\` stands before a character that is not plain text');
      startWord();
      if (words.length === 0) quotedName = true;
      word += text[index + 1];
      index += 2;
      continue;
    }
    if (character === '{' && text[index + 1] === '}') {
      // `{}` (find's and xargs' place for a name) is never a brace list.
      startWord();
      word += '{}';
      index += 2;
      continue;
    }
    if (code < 0x80 && WORD[code] === 1) {
      startWord();
      // The whole run of such characters at once.
      let end = index + 1;
      while (end < text.length) {
        const next = text.charCodeAt(end);
        if (next >= 0x80 || WORD[next] !== 1) break;
        end++;
      }
      word += text.slice(index, end);
      index = end;
      continue;
    }
    if (code < 0x20 || code === 0x7f) return NOT_PLAIN('it holds a control character');
    if (code >= 0x80) return NOT_PLAIN('an unquoted word holds a character that is not ASCII');
    return NOT_PLAIN(`\`${character}\` has a meaning to the shell that is not read here`);
  }
  const last = endWord();
  if (last !== undefined) return NOT_PLAIN(last);
  const problem = endCommand(undefined);
  if (problem !== undefined) return NOT_PLAIN(problem);
  if (commands.length === 0) return NOT_PLAIN('it runs nothing');
  return { plain: true, commands };
}
