import type { SyntaxNode } from './shell-parser.js';

/**
 * Bash evaluates some text a second time, as arithmetic or as a variable's name, and an array
 * subscript met there is expanded: `x='a[$(rm y)]'; echo $((x))` runs `rm y`, though the line
 * holds no command but `echo`. The text can come from anywhere (an assignment, a loop, a file
 * read by `$(cat f)`, a file's name), so it is the places that evaluate it that are caught.
 */
const EVALUATED =
  'bash evaluates text there as arithmetic or as a name, which can run a command hidden in it';

/** A command substitution (`$( )`, backticks) or a process substitution (`<( )`, `>( )`), not escaped. */
export const SUBSTITUTION = /(?:^|[^\\])(?:`|\$\(|[<>]\()/;

/** `$[ ]`, `$(( ))` or `${ }`: where bash may evaluate a name, in text the parser did not read. */
export const EVALUABLE = /\$(?:\[|\(\(|\{)/;

const HIDDEN_SUBSTITUTION =
  'a command inside a parameter expansion cannot be checked before it runs';

/** Arithmetic whose text is only digits, operators and spaces evaluates nothing else. */
const INERT_ARITHMETIC = /^[\d\s+\-*/%()<>=!&|^~?:,]*$/;

/** `${!name}` (indirection), `${name@P}` (prompt expansion), `${name:offset}` with an offset to evaluate. */
const EVALUATING_EXPANSION =
  /^\$\{!|@P\}$|^\$\{#?[\w@*]+(?:\[[^\]]*\])?:(?![-=?+])[^}]*[A-Za-z_$`]/;

/** `[[ … ]]` operators that evaluate their operands as arithmetic, and `-v`/`-R` (a name). */
const EVALUATING_TEST = /(?:^|\s)-(?:eq|ne|lt|le|gt|ge|v|R)(?:\s|$)/;

/** Node types `evaluationProblem` looks at; every other node is passed without reading it. */
export const EVALUATING_TYPES: ReadonlySet<string> = new Set([
  'arithmetic_expansion',
  'command_substitution',
  'c_style_for_statement',
  'compound_statement',
  'subscript',
  'expansion',
  'test_command',
]);

/** Why no rule may allow a node whose text bash evaluates, or `undefined`. */
export function evaluationProblem(node: SyntaxNode, type: string): string | undefined {
  const text = node.text;
  switch (type) {
    case 'arithmetic_expansion':
      return INERT_ARITHMETIC.test(text.replace(/^\$(?:\(\(|\[)|(?:\)\)|\])$/g, ''))
        ? undefined
        : EVALUATED;
    case 'command_substitution':
      // In a heredoc or a `${x:-…}` the parser reads `$((x))` as `$( (x) )`, a subshell; bash
      // reads it as arithmetic, as everywhere else.
      return text.startsWith('$((') && !INERT_ARITHMETIC.test(text.slice(3, -2))
        ? EVALUATED
        : undefined;
    case 'c_style_for_statement':
      return EVALUATED;
    case 'compound_statement':
      // `(( … ))` is arithmetic; `{ …; }` is a block.
      return text.startsWith('((') && !INERT_ARITHMETIC.test(text.slice(2, -2))
        ? EVALUATED
        : undefined;
    case 'subscript': {
      const index = node.childForFieldName('index')?.text ?? '';
      return /^(?:\d+|@|\*)$/.test(index) ? undefined : EVALUATED;
    }
    case 'expansion':
      // The parser reads no substitution after most of `${…}`'s operators (`${PWD#$(rm x)}`,
      // `${x:-\`rm x\`}`, `${x,,<(rm x)}`): bash runs each, so none is allowed unseen.
      // Nor any `$[ ]`, `$(( ))` or `${ }` inside it, where a name can be evaluated unseen.
      if (SUBSTITUTION.test(text) || EVALUABLE.test(text.slice(2))) {
        return HIDDEN_SUBSTITUTION;
      }
      return EVALUATING_EXPANSION.test(text) ? EVALUATED : undefined;
    case 'test_command':
      return EVALUATING_TEST.test(text) ? EVALUATED : undefined;
    default:
      return undefined;
  }
}

/**
 * Builtins that take a variable's name as an argument and expand a subscript in it
 * (`unset 'a[$(rm y)]'`, `test -v …`, `printf -v …`), and `let`, whose arguments are arithmetic.
 */
const NAME_TAKING = new Set([
  'test',
  '[',
  'unset',
  'read',
  'mapfile',
  'readarray',
  'printf',
  'wait',
  'getopts',
  'declare',
  'typeset',
  'local',
  'export',
  'readonly',
  'let',
]);

/** A name with a subscript that holds an expansion: bash runs it when it reads the name. */
const SUBSCRIPT_WITH_EXPANSION = /\[[\s\S]*[$`]/;

/**
 * Why no rule may allow a builtin's words (its name first) whose argument bash would evaluate,
 * or `undefined`. A word known only when it runs (`null`) might be any name.
 */
export function namesProblem(words: readonly (string | null)[]): string | undefined {
  const name = words[0];
  if (name === null || name === undefined || !NAME_TAKING.has(name)) return undefined;
  if (name === 'let') return words.length > 1 ? EVALUATED : undefined;
  for (let index = 1; index < words.length; index++) {
    const word = words[index];
    if (word === null || word === undefined) {
      // `test -n "$x"`, `printf '%s' "$x"` and `wait $!` read a value, not a name (but the
      // word after `-v`, and `wait -p`'s, is one).
      const previous = words[index - 1];
      const named = previous === '-v' || (name === 'wait' && previous === '-p');
      if ((name === 'test' || name === '[' || name === 'printf' || name === 'wait') && !named)
        continue;
      return EVALUATED;
    }
    if (SUBSCRIPT_WITH_EXPANSION.test(word)) return EVALUATED;
    // `declare -i` evaluates what is assigned later; `-n` makes a name stand for another.
    if (/^(?:declare|typeset|local)$/.test(name) && /^[-+]\w*[in]/.test(word)) return EVALUATED;
  }
  return undefined;
}
