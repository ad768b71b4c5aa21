import { RecentAnalyses } from '../recent-analyses.js';
import { commandName } from './command-name.js';
import { findCommands } from './find-commands.js';
import { readPlainScript } from './plain-script.js';
import { changesWhatRuns, programRecord, setsProblem } from './programs.js';
import { parseBash } from './shell-parser.js';
import { treeCommands } from './tree-parts.js';
import { unwrap, type Word } from './wrappers.js';

/** One simple command of a command line, as it would run: its words, wrappers seen through. */
export interface CommandPart {
  /** It runs as another user (through `sudo` or `doas`): deny rules apply, allow rules never. */
  readonly elevated?: boolean;
  /**
   * The words, quotes removed; `null` for a word whose text is only known when it runs (a
   * variable, a substitution, a glob): no rule can match on it.
   */
  readonly words: readonly Word[];
  /** The wrappers it was found in, outermost first (`timeout 10 npm test`: `timeout`). */
  readonly via?: readonly string[];
}

/** What a command line runs, as far as it can be known before it runs. */
export interface CommandAnalysis {
  /** Every simple command it would run, nested ones (`bash -c`, `find -exec`, `$( )`) included. */
  readonly parts: readonly CommandPart[];
  /**
   * Why no rule may allow it, if one is: it is not a plain script (see `readPlainScript`), a
   * part's own options make it run code or write elsewhere, it sets a variable that changes what
   * runs, it runs as another user or through a wrapper that changes what runs. Deny rules still
   * apply to the parts that could be read.
   */
  readonly problem?: string;
  /** It writes to a file through a redirection (`> file`): such a command always asks. */
  readonly writes: boolean;
}

/** Longest command line that is read; a longer one always asks. */
const LONGEST_COMMAND = 100_000;
/** How deep `bash -c` may nest, and how many scripts one command line may hold, before it asks. */
const DEEPEST_SCRIPT = 8;
const MOST_SCRIPTS = 64;
/** How long the parser may take over the scripts of one command line that is not plain, in all. */
const PARSE_BUDGET_MS = 250;
/**
 * The longest script the parser reads. It stops at its budget only between steps, and on some
 * texts (`a=(` repeated) a step grows with the text: 48,000 characters took a second. A longer
 * script that is not plain asks, its parts unread.
 */
const LONGEST_PARSED = 32_768;

/**
 * The analyses kept: 64 at most, weighing 4 MiB in all by `heapWeight` (a long command, or many
 * tiny parts, `a;a;a;…`, whose analysis holds about 250 bytes a part).
 */
const recent = new RecentAnalyses<CommandAnalysis>(64, 4 * 1024 * 1024);

function heapWeight(command: string, analysis: CommandAnalysis): number {
  let words = 0;
  for (const part of analysis.parts) words += part.words.length;
  return 2 * command.length + 256 * analysis.parts.length + 32 * words;
}

/**
 * Whether bash reads non-ASCII text in quotes as the characters it is: in a UTF-8 locale or the C
 * locale (bytes). In another multibyte locale (Shift-JIS, GBK, Big5) a byte of a character may be
 * `\` or a quote, and bash would read the command otherwise than it is written here.
 */
export function readsTextAsWritten(env: Readonly<Record<string, string | undefined>>): boolean {
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG || 'C';
  return /^(?:C|POSIX)$|utf-?8/i.test(locale);
}

interface Script {
  readonly text: string;
  readonly elevated: boolean;
  readonly shell: 'bash' | 'other';
  readonly depth: number;
  /** The commands it was found in (`bash` of `bash -c`); none at the top of the line. */
  readonly via?: readonly string[];
}

/**
 * `git -c alias.x=push x` runs `git push`: where git's own options define an alias (or read one
 * from the environment), its subcommand is read as unknown, so a deny rule for any subcommand
 * meets it. (An alias in the person's git configuration cannot be seen here.)
 */
function gitAliasesHidden(words: readonly Word[]): readonly Word[] {
  if (words[0] !== 'git') return words;
  let index = 1;
  let aliased = false;
  for (; index < words.length; index++) {
    const word = words[index];
    if (word === null || word === undefined) return words;
    if (!word.startsWith('-')) break;
    const value = word === '-c' ? words[index + 1] : word.startsWith('-c') ? word.slice(2) : word;
    if (value === null || /^alias\./i.test(value ?? '') || word.startsWith('--config-env'))
      aliased = true;
    if (word === '-c' || word === '-C' || word === '--config-env') index++;
  }
  if (!aliased || index >= words.length) return words;
  return [...words.slice(0, index), null, ...words.slice(index + 1)];
}

function partOf(
  words: readonly Word[],
  elevated: boolean,
  via: readonly string[] | undefined,
): CommandPart {
  if (via !== undefined) return elevated ? { words, elevated, via } : { words, via };
  return elevated ? { words, elevated } : { words };
}

class Collector {
  readonly parts: CommandPart[] = [];
  readonly problems: string[] = [];
  readonly queue: Script[] = [];
  writes = false;

  /** Adds what `words` run (wrappers seen through) as parts, and why no rule may allow them. */
  add(words: readonly Word[], elevated: boolean, depth: number, outer?: readonly string[]): void {
    const found = unwrap(words, this.problems);
    // What runs inside another command (`bash -c`, `find -exec`) is found through it.
    const unwrapped =
      outer === undefined || found.kind !== 'command'
        ? found
        : { ...found, via: [...outer, ...(found.via ?? [])] };
    if (unwrapped.kind === 'problem') {
      this.problems.push(unwrapped.problem);
      // What could be read still meets the deny rules.
      if (words.length > 0) this.parts.push(elevated ? { words, elevated } : { words });
      return;
    }
    if (unwrapped.kind === 'script') {
      if (unwrapped.script === null) {
        this.problems.push("a shell's script is only known when it runs");
        return;
      }
      this.queue.push({
        text: unwrapped.script,
        elevated: elevated || unwrapped.elevated === true,
        shell: unwrapped.shell,
        depth: depth + 1,
        via: [
          ...(outer ?? []),
          ...words.filter((word): word is string => word !== null).slice(0, 1),
        ],
      });
      return;
    }
    if (unwrapped.words.length === 0) return;
    const first = unwrapped.words[0] as Word;
    const name = first === null ? undefined : commandName(first);
    const named = gitAliasesHidden(
      name === undefined || name === first ? unwrapped.words : [name, ...unwrapped.words.slice(1)],
    );
    const asOther = elevated || unwrapped.elevated === true;
    if (unwrapped.wrapped === true)
      this.problems.push('a wrapper around the command changes what it runs');
    const record = name === undefined ? undefined : programRecord(name);
    if (record?.shellState === true)
      this.problems.push(`\`${name}\` changes how the shell reads or runs what follows`);
    if (record?.check !== undefined) {
      // A word known only when it runs might be any option: the check cannot be made.
      const problem = named.every((word) => word !== null)
        ? record.check(named as readonly string[])
        : `the words of \`${name}\` are only known when it runs`;
      if (problem !== undefined) this.problems.push(problem);
    }
    if (name === 'find') {
      const [own, ...inner] = findCommands(named, this.problems);
      this.parts.push(partOf(own as Word[], asOther, unwrapped.via));
      // `find -exec find -exec …`: each level is a command of its own, read to a bound.
      if (inner.length > 0 && depth >= DEEPEST_SCRIPT) {
        this.problems.push('`find -exec` is nested too deep to check');
        return;
      }
      const via = [...(unwrapped.via ?? []), 'find'];
      for (const command of inner) this.add(command, asOther, depth + 1, via);
      return;
    }
    this.parts.push(partOf(named, asOther, unwrapped.via));
  }
}

/**
 * Reads one script: as a plain script when it is one (the only shape a rule may allow), else
 * with the Bash parser, for the deny rules alone.
 */
async function read(script: Script, collector: Collector, deadline: number, multibyte: boolean) {
  const { problems } = collector;
  if (script.shell === 'other')
    problems.push('a script of a shell other than bash is not read with its own grammar');
  const plain = readPlainScript(script.text, {
    multibyte,
    ampersandRedirect: script.shell === 'bash',
  });
  if (plain.plain) {
    for (const command of plain.commands) {
      for (const [variable, value] of command.assignments)
        if (changesWhatRuns(variable, value)) problems.push(setsProblem(variable));
      collector.add(command.words, script.elevated, script.depth, script.via);
    }
    return;
  }
  problems.push(plain.problem);
  if (script.text.length > LONGEST_PARSED) {
    problems.push('the command is too long to read for the deny rules');
    return;
  }
  const tree = await parseBash(script.text, Math.max(0, deadline - performance.now()));
  if (tree === null) {
    problems.push('the command could not be read in time');
    return;
  }
  try {
    const found = treeCommands(tree.rootNode, deadline);
    if (found === undefined) {
      problems.push('the command is too large to read in time');
      return;
    }
    if (found.writes) collector.writes = true;
    for (const words of found.commands)
      collector.add(words, script.elevated, script.depth, script.via);
    for (const text of found.scripts)
      collector.queue.push({ ...script, text, depth: script.depth + 1 });
  } finally {
    tree.delete();
  }
}

async function analyse(command: string, multibyte: boolean): Promise<CommandAnalysis> {
  if (command.length > LONGEST_COMMAND)
    return { parts: [], problem: 'the command is too long to check', writes: false };
  const collector = new Collector();
  collector.queue.push({ text: command, elevated: false, shell: 'bash', depth: 0 });
  const deadline = performance.now() + PARSE_BUDGET_MS;
  for (let count = 0; collector.queue.length > 0; count++) {
    const script = collector.queue.shift() as Script;
    if (script.depth > DEEPEST_SCRIPT || count >= MOST_SCRIPTS) {
      collector.problems.push('scripts are nested too deep to check');
      break;
    }
    await read(script, collector, deadline, multibyte);
  }
  const [problem] = collector.problems;
  return {
    parts: collector.parts,
    ...(problem !== undefined && { problem }),
    writes: collector.writes,
  };
}

/** The analysis, frozen through: callers that analyse a recent text are handed the same one. */
function frozen(analysis: CommandAnalysis): CommandAnalysis {
  for (const part of analysis.parts) {
    Object.freeze(part.words);
    if (part.via !== undefined) Object.freeze(part.via);
    Object.freeze(part);
  }
  Object.freeze(analysis.parts);
  return Object.freeze(analysis);
}

/**
 * Lists every simple command a command line would run, and says in `problem` why no rule may
 * allow it, if one is. Only a plain script (simple commands joined by `&&`, `||`, `;`, `|` and
 * new lines, of literal words) may be allowed by rules; anything else is read by the Bash parser
 * for the deny rules, and asks. The time and the memory it takes are bounded.
 */
export async function analyseCommand(
  command: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<CommandAnalysis> {
  const multibyte = readsTextAsWritten(env);
  const key = multibyte ? command : `\u0000${command}`;
  const known = recent.get(key);
  if (known !== undefined) return known;
  const analysis = frozen(await analyse(command, multibyte));
  if (command.length <= LONGEST_COMMAND) recent.set(key, analysis, heapWeight(command, analysis));
  return analysis;
}
