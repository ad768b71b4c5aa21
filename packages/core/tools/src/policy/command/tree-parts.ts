import type { SyntaxNode } from './shell-parser.js';
import type { Word } from './wrappers.js';

/**
 * The simple commands tree-sitter-bash finds in a command line that is not plain, for the deny
 * rules alone: such a command always asks, so nothing here can make it run unasked. Where the
 * parser and bash disagree, a denied command may be missed, and the person is asked instead.
 */
export interface TreeCommands {
  /** Each simple command's words, in the order met. */
  readonly commands: Word[][];
  /** Scripts found inside (backticks bash reads again): each is read as a command line too. */
  readonly scripts: string[];
  /** It writes a file through a redirection. */
  readonly writes: boolean;
}

/** Removes the backslashes of an unquoted word (`\rm` is `rm`). */
function unescapeWord(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\\n/g, '').replace(/\\(.)/gs, '$1');
}

/** Whether an unquoted word is expanded when it runs: a glob (`*.ts`), a brace list (`{a,b}`). */
function isExpanded(text: string): boolean {
  const bare = text.includes('\\') ? text.replace(/\\./g, '') : text;
  return /[*?[]/.test(bare) || /\{[^}]*(,|\.\.)[^}]*\}/.test(bare);
}

/** The text a word node stands for, or `null` when it is only known at run time. */
function literal(node: SyntaxNode): Word {
  switch (node.type) {
    case 'word': {
      const word = node.text;
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

/** Whether a redirection writes to a file (not a file descriptor, not /dev/null). */
function writesFile(node: SyntaxNode): boolean {
  const operator =
    node.children.find((child) => child !== null && /[<>]/.test(child.type))?.type ?? '';
  if (!operator.includes('>')) return false;
  const destination = node.childForFieldName('destination');
  const target = destination === null ? null : literal(destination);
  if (target === '/dev/null') return false;
  return !(operator.endsWith('&') && target !== null && /^\d+-?$|^-$/.test(target));
}

/** The words of a `command` node: its name and arguments, not its assignments and redirections. */
function commandWords(node: SyntaxNode): Word[] {
  const words: Word[] = [];
  for (const child of node.namedChildren) {
    if (child === null) continue;
    const type = child.type;
    if (type === 'command_name') {
      const name = child.firstNamedChild;
      words.push(name === null ? null : literal(name));
    } else if (type !== 'variable_assignment' && !type.endsWith('_redirect') && words.length > 0) {
      words.push(literal(child));
    }
  }
  return words;
}

/** How many nodes a walk visits at most: past it, what is left is not read (the command asks). */
const MOST_NODES = 200_000;

/**
 * Walks the tree without recursion (a command nested 10,000 deep costs a stack of nodes, not of
 * calls) and lists every simple command in it. `undefined` when the tree holds more nodes than
 * are read, or the walk outlasts `deadline` (a `performance.now()` time).
 */
export function treeCommands(root: SyntaxNode, deadline: number): TreeCommands | undefined {
  const found: TreeCommands = { commands: [], scripts: [], writes: false };
  const stack: SyntaxNode[] = [root];
  let visited = 0;
  while (stack.length > 0) {
    if (++visited > MOST_NODES) return undefined;
    if ((visited & 1023) === 0 && performance.now() > deadline) return undefined;
    const node = stack.pop() as SyntaxNode;
    const type = node.type;
    if (type === 'command') found.commands.push(commandWords(node));
    else if (type === 'declaration_command' || type === 'unset_command') {
      const keyword = node.child(0)?.text;
      if (keyword !== undefined) found.commands.push([keyword]);
    } else if (type === 'file_redirect' && writesFile(node)) {
      (found as { writes: boolean }).writes = true;
    } else if (type === 'command_substitution') {
      const first = node.firstNamedChild;
      // `$(< file)` is `$(cat file)`, read without a command.
      if (first?.type === 'file_redirect') {
        const destination = first.childForFieldName('destination');
        found.commands.push(['cat', destination === null ? null : literal(destination)]);
      }
      const text = node.text;
      // Inside backticks bash removes the backslash before `, $ and \ and parses what is left.
      if (text.startsWith('`') && /\\[`$\\]/.test(text))
        found.scripts.push(text.slice(1, -1).replace(/\\([`$\\])/g, '$1'));
    }
    const children = node.namedChildren;
    for (let index = children.length - 1; index >= 0; index--) {
      const child = children[index];
      if (child !== null && child !== undefined) stack.push(child);
    }
  }
  return found;
}
