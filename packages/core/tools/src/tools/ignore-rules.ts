// The rules of one `.gitignore`, read in time linear in its text and asked in time that does
// not grow with its literal rules. The `ignore` package tried every rule against every path:
// with a 100,000-line file from a cloned repository, one path took 0.55 s, the whole listing
// hours, and the event loop was held all along.
import type { eventLoopTurns } from './event-loop-turns.js';
import { globSteps, literalOf, stepsMatcher } from './glob-pattern.js';

/** Rules with a wildcard one `.gitignore` may hold; those past it are not applied, and the result says so. */
export const WILDCARD_RULES = 1_000;

interface Rule {
  /** Its line's place in the file: of the rules that match, the last one decides. */
  readonly order: number;
  /** A `!` rule: what it matches is kept. */
  readonly negated: boolean;
}

/** The last rule of a key that applies to any entry, and the last that applies to folders only. */
interface Keyed {
  any?: Rule;
  folder?: Rule;
}

interface WildcardRule extends Rule {
  readonly folderOnly: boolean;
  /** Matched against the path from the rules' folder, else against the entry's name. */
  readonly anchored: boolean;
  readonly matches: (subject: string) => boolean;
}

/** What the rules of one `.gitignore` say of an entry. */
export interface IgnoreRules {
  /**
   * `true` when the entry is ignored, `false` when a `!` rule keeps it, `undefined` when no rule
   * names it. `path` is relative to the rules' folder; `name` is its last part.
   */
  decide(path: string, name: string, folder: boolean): boolean | undefined;
  /** The rules with a wildcard past `WILDCARD_RULES`, not applied. */
  readonly skipped: number;
}

/** A line's rule: `!`, a trailing `/`, anchoring and trailing spaces read as git reads them. */
function ruleOf(line: string) {
  let text = line.endsWith('\r') ? line.slice(0, -1) : line;
  if (text === '' || text.startsWith('#')) return undefined;
  let end = text.length;
  while (end > 0 && text[end - 1] === ' ' && text[end - 2] !== '\\') end--;
  text = text.slice(0, end);
  const negated = text.startsWith('!');
  if (negated) text = text.slice(1);
  const folderOnly = text.endsWith('/');
  if (folderOnly) text = text.slice(0, -1);
  // A `/` left at the start or inside ties the rule to the folder of the `.gitignore`.
  const anchored = text.includes('/');
  if (text.startsWith('/')) text = text.slice(1);
  if (text === '') return undefined;
  return { negated, folderOnly, anchored, text };
}

/** A character that makes a glob more than its text. */
const SPECIAL = /[*?[\\]/;

/**
 * The table a rule without wildcards (or with one `*` at an end) goes into, read from its text
 * alone: most lines of a `.gitignore` are such, and reading them into steps cost ten times more.
 */
function plainKey(text: string, anchored: boolean) {
  const deep = text.startsWith('**/');
  const body = deep ? text.slice(3) : text;
  if (!SPECIAL.test(body)) {
    if ((!anchored || deep) && !body.includes('/')) return { table: 'names', key: body } as const;
    if (!deep) return { table: 'paths', key: body } as const;
    return undefined;
  }
  if (anchored) return undefined;
  if (text.startsWith('*') && !SPECIAL.test(text.slice(1)))
    return { table: 'ends', key: text.slice(1) } as const;
  if (text.endsWith('*') && !SPECIAL.test(text.slice(0, -1)))
    return { table: 'starts', key: text.slice(0, -1) } as const;
  return undefined;
}

function keep(map: Map<string, Keyed>, key: string, rule: Rule, folderOnly: boolean): void {
  let keyed = map.get(key);
  if (keyed === undefined) {
    keyed = {};
    map.set(key, keyed);
  }
  if (folderOnly) keyed.folder = rule;
  else keyed.any = rule;
}

/**
 * The rules of a `.gitignore`'s text. Rules naming a file or folder (`dist/`, `/build`,
 * `**\/node_modules`), a name's end (`*.log`) or start (`tmp*`) go into tables; the others, at most
 * `WILDCARD_RULES`, are tried one by one from the last. Gives the event loop its turns while it
 * reads, and stops reading once `stop()` says so.
 */
export async function readIgnoreRules(
  text: string,
  turns: ReturnType<typeof eventLoopTurns>,
  stop: () => boolean = () => false,
): Promise<IgnoreRules> {
  const names = new Map<string, Keyed>();
  const paths = new Map<string, Keyed>();
  const ends = new Map<string, Keyed>();
  const starts = new Map<string, Keyed>();
  const endLengths = new Set<number>();
  const startLengths = new Set<number>();
  const wildcards: WildcardRule[] = [];
  let skipped = 0;
  let order = 0;
  for (let start = 0; start <= text.length; ) {
    if (turns.due()) {
      await turns.take();
      // Cancelled: the walk ends too, and what it gives so far is what these rules allow.
      if (stop()) break;
    }
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const parsed = ruleOf(text.slice(start, end));
    start = end + 1;
    if (parsed === undefined) continue;
    const { negated, folderOnly, anchored } = parsed;
    const rule: Rule = { order: order++, negated };
    const plain = plainKey(parsed.text, anchored);
    if (plain !== undefined) {
      const table =
        plain.table === 'names'
          ? names
          : plain.table === 'paths'
            ? paths
            : plain.table === 'ends'
              ? ends
              : starts;
      keep(table, plain.key, rule, folderOnly);
      if (plain.table === 'ends') endLengths.add(plain.key.length);
      if (plain.table === 'starts') startLengths.add(plain.key.length);
      continue;
    }
    const steps = globSteps(parsed.text);
    const deep = steps[0]?.kind === 'folders';
    const name = literalOf(deep ? steps.slice(1) : steps);
    const after = literalOf(steps.slice(1));
    const before = literalOf(steps.slice(0, -1));
    if (name !== undefined && (!anchored || deep) && !name.includes('/')) {
      keep(names, name, rule, folderOnly);
    } else if (name !== undefined && !deep) {
      keep(paths, name, rule, folderOnly);
    } else if (!anchored && steps[0]?.kind === 'star' && after !== undefined) {
      keep(ends, after, rule, folderOnly);
      endLengths.add(after.length);
    } else if (!anchored && steps.at(-1)?.kind === 'star' && before !== undefined) {
      keep(starts, before, rule, folderOnly);
      startLengths.add(before.length);
    } else if (wildcards.length < WILDCARD_RULES) {
      // Written out, not spread from `rule`: a spread object made every try 7 times slower.
      wildcards.push({
        order: rule.order,
        negated,
        folderOnly,
        anchored,
        matches: stepsMatcher(steps),
      });
    } else {
      skipped++;
    }
  }
  const sortedEnds = [...endLengths].sort((a, b) => a - b);
  const sortedStarts = [...startLengths].sort((a, b) => a - b);
  return {
    skipped,
    decide(path, name, folder) {
      let best: Rule | undefined;
      const consider = (keyed: Keyed | undefined): void => {
        if (keyed === undefined) return;
        if (keyed.any !== undefined && (best === undefined || keyed.any.order > best.order))
          best = keyed.any;
        if (
          folder &&
          keyed.folder !== undefined &&
          (best === undefined || keyed.folder.order > best.order)
        )
          best = keyed.folder;
      };
      consider(names.get(name));
      consider(paths.get(path));
      for (const length of sortedEnds) {
        if (length > name.length) break;
        consider(ends.get(name.slice(name.length - length)));
      }
      for (const length of sortedStarts) {
        if (length > name.length) break;
        consider(starts.get(name.slice(0, length)));
      }
      for (let index = wildcards.length - 1; index >= 0; index--) {
        const rule = wildcards[index] as WildcardRule;
        if (best !== undefined && rule.order < best.order) break;
        if (rule.folderOnly && !folder) continue;
        if (rule.matches(rule.anchored ? path : name)) {
          best = rule;
          break;
        }
      }
      return best === undefined ? undefined : !best.negated;
    },
  };
}
