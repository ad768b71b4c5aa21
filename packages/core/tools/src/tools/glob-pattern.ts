// Globs matched in time linear in the path: the glob is read into steps and every path is run
// through them as a set of positions, never by backtracking. A glob compiled to a regular
// expression (picomatch, the `ignore` package) backtracks: `*a*a*a*a*a*a*b` held one call of
// picomatch 12.6 s against a 60-character name, and a name comes from a cloned repository.

/** One step of a glob. `[…]` holds code point ranges, two numbers each. */
export type GlobStep =
  | { readonly kind: 'char'; readonly code: number }
  | { readonly kind: 'one' }
  | { readonly kind: 'set'; readonly negated: boolean; readonly ranges: readonly number[] }
  | { readonly kind: 'star' }
  | { readonly kind: 'folders' }
  | { readonly kind: 'anything' }
  | { readonly kind: 'anyOne' };

const SLASH = 0x2f;
const BACKSLASH = 0x5c;

function codesOf(text: string): number[] {
  const codes: number[] = [];
  for (const character of text) codes.push(character.codePointAt(0) as number);
  return codes;
}

/** The `[…]` at `start` (its `[`), or `undefined` when it never closes (then `[` is a character). */
function setAt(codes: readonly number[], start: number) {
  let index = start + 1;
  const negated = codes[index] === 0x21 || codes[index] === 0x5e; // `!` or `^`
  if (negated) index++;
  const ranges: number[] = [];
  let first = true;
  while (index < codes.length && (codes[index] !== 0x5d || first)) {
    first = false;
    let low = codes[index] as number;
    if (low === BACKSLASH && index + 1 < codes.length) low = codes[++index] as number;
    let high = low;
    if (codes[index + 1] === 0x2d && index + 2 < codes.length && codes[index + 2] !== 0x5d) {
      index += 2;
      high = codes[index] as number;
      if (high === BACKSLASH && index + 1 < codes.length) high = codes[++index] as number;
    }
    ranges.push(low, high);
    index++;
  }
  if (index >= codes.length) return undefined;
  return { step: { kind: 'set', negated, ranges } as const, end: index + 1 };
}

/**
 * The steps of a glob: `*` (any run of characters but `/`), `?` (one but `/`), `[…]` (one of a
 * set, `[!…]` or `[^…]` for one outside it), `**` as a whole folder name (any run of folders),
 * `\` before a character that means it. Braces are expanded before (`expandBraces`).
 */
export function globSteps(glob: string): GlobStep[] {
  const codes = codesOf(glob);
  const steps: GlobStep[] = [];
  // Once a `[` never closes, no later one does: each is read to the end once at most.
  let setsClose = true;
  let index = 0;
  while (index < codes.length) {
    const code = codes[index] as number;
    if (code === 0x2a) {
      let end = index;
      while (codes[end] === 0x2a) end++;
      const wholeName =
        end - index >= 2 &&
        (index === 0 || codes[index - 1] === SLASH) &&
        (end === codes.length || codes[end] === SLASH);
      if (wholeName && end < codes.length) {
        steps.push({ kind: 'folders' });
        end++;
      } else if (wholeName && index === 0) {
        steps.push({ kind: 'anything' });
      } else if (wholeName) {
        // `dir/**`: whatever is inside the folder, not the folder itself.
        steps.push({ kind: 'anyOne' }, { kind: 'anything' });
      } else if (steps.at(-1)?.kind !== 'star') {
        steps.push({ kind: 'star' });
      }
      index = end;
    } else if (code === 0x3f) {
      steps.push({ kind: 'one' });
      index++;
    } else if (code === 0x5b && setsClose) {
      const set = setAt(codes, index);
      if (set === undefined) {
        setsClose = false;
        steps.push({ kind: 'char', code });
        index++;
      } else {
        steps.push(set.step);
        index = set.end;
      }
    } else if (code === BACKSLASH && index + 1 < codes.length) {
      steps.push({ kind: 'char', code: codes[index + 1] as number });
      index += 2;
    } else {
      steps.push({ kind: 'char', code });
      index++;
    }
  }
  return steps;
}

function inSet(step: Extract<GlobStep, { kind: 'set' }>, code: number): boolean {
  if (code === SLASH) return false;
  let inside = false;
  for (let index = 0; index < step.ranges.length && !inside; index += 2)
    inside = code >= (step.ranges[index] as number) && code <= (step.ranges[index + 1] as number);
  return inside !== step.negated;
}

/** The literal text of steps that are all characters, else `undefined`. */
export function literalOf(steps: readonly GlobStep[]): string | undefined {
  let text = '';
  for (const step of steps) {
    if (step.kind !== 'char') return undefined;
    text += String.fromCodePoint(step.code);
  }
  return text;
}

/**
 * A test of a path against the steps, in time linear in the path times the steps: the positions
 * the glob may be at are carried along the path as a set (two per step: at it, or inside a
 * folder name of `**`). The common shapes (`name`, `*.ext`, `**\/*.ext`) take a string compare.
 */
export function stepsMatcher(steps: readonly GlobStep[]): (path: string) => boolean {
  const literal = literalOf(steps);
  if (literal !== undefined) return (path) => path === literal;
  const afterStar = literalOf(steps.slice(1));
  if (steps[0]?.kind === 'star' && afterStar !== undefined && !afterStar.includes('/'))
    return (path) => path.endsWith(afterStar) && !path.includes('/');
  const afterFolders = literalOf(steps.slice(2));
  if (
    steps[0]?.kind === 'folders' &&
    steps[1]?.kind === 'star' &&
    afterFolders !== undefined &&
    !afterFolders.includes('/')
  )
    return (path) => path.endsWith(afterFolders);
  // The characters before the first wildcard and after the last must be the path's own start
  // and end: most paths are turned away by these two compares, before any set is carried.
  let head = 0;
  while (steps[head]?.kind === 'char') head++;
  let tail = steps.length;
  while (tail > head && steps[tail - 1]?.kind === 'char') tail--;
  const prefix = literalOf(steps.slice(0, head)) as string;
  const suffix = literalOf(steps.slice(tail)) as string;
  const matches = carried(steps);
  return (path) => path.startsWith(prefix) && path.endsWith(suffix) && matches(path);
}

/** The test of a path against the steps by the set of positions (see `stepsMatcher`). */
function carried(steps: readonly GlobStep[]): (path: string) => boolean {
  const count = steps.length;
  const states = 2 * (count + 1);
  let current = new Int32Array(states);
  let next = new Int32Array(states);
  const seen = new Uint32Array(states);
  let generation = 0;
  // Adds a position and those it reaches without a character (after `*`, `**`: nothing is taken).
  const add = (list: Int32Array, size: number, state: number): number => {
    let at = state;
    while (seen[at] !== generation) {
      seen[at] = generation;
      list[size++] = at;
      const step = steps[at >> 1];
      if ((at & 1) === 1 || step === undefined) break;
      if (step.kind !== 'star' && step.kind !== 'folders' && step.kind !== 'anything') break;
      at += 2;
    }
    return size;
  };
  return (path) => {
    generation++;
    let size = add(current, 0, 0);
    for (const character of path) {
      const code = character.codePointAt(0) as number;
      generation++;
      let nextSize = 0;
      for (let index = 0; index < size; index++) {
        const state = current[index] as number;
        const step = steps[state >> 1];
        if (step === undefined) continue;
        const after = (state & ~1) + 2;
        if ((state & 1) === 1) {
          // Inside a folder name of `**`: more of it, or its end.
          nextSize = add(next, nextSize, code === SLASH ? state - 1 : state);
          continue;
        }
        switch (step.kind) {
          case 'char':
            if (code === step.code) nextSize = add(next, nextSize, after);
            break;
          case 'one':
            if (code !== SLASH) nextSize = add(next, nextSize, after);
            break;
          case 'set':
            if (inSet(step, code)) nextSize = add(next, nextSize, after);
            break;
          case 'star':
            if (code !== SLASH) nextSize = add(next, nextSize, state);
            break;
          case 'folders':
            nextSize = add(next, nextSize, code === SLASH ? state : state + 1);
            break;
          case 'anything':
            nextSize = add(next, nextSize, state);
            break;
          case 'anyOne':
            nextSize = add(next, nextSize, after);
            break;
        }
      }
      [current, next] = [next, current];
      size = nextSize;
      if (size === 0) return false;
    }
    for (let index = 0; index < size; index++) if (current[index] === 2 * count) return true;
    return false;
  };
}

/** The first `{…,…}` of a glob not behind `\`: where it starts and ends, and its alternatives. */
function braceAt(glob: string) {
  for (let start = 0; start < glob.length; start++) {
    if (glob[start] === '\\') {
      start++;
      continue;
    }
    if (glob[start] !== '{') continue;
    const alternatives: string[] = [];
    let depth = 0;
    let from = start + 1;
    for (let index = start + 1; index < glob.length; index++) {
      const character = glob[index];
      if (character === '\\') index++;
      else if (character === '{') depth++;
      else if (character === '}' && depth > 0) depth--;
      else if (character === ',' && depth === 0) {
        alternatives.push(glob.slice(from, index));
        from = index + 1;
      } else if (character === '}') {
        if (alternatives.length === 0) break;
        alternatives.push(glob.slice(from, index));
        return { start, end: index + 1, alternatives };
      }
    }
  }
  return undefined;
}

/**
 * The globs `glob` stands for, its braces expanded (`{a,b}` for a and for b, nested too), or
 * `undefined` past `limit` of them: `{a,b}` twenty times over would be a million globs.
 */
export function expandBraces(glob: string, limit: number): string[] | undefined {
  const globs: string[] = [];
  const expand = (text: string): boolean => {
    const brace = braceAt(text);
    if (brace === undefined) {
      globs.push(text);
      return globs.length <= limit;
    }
    const before = text.slice(0, brace.start);
    const after = text.slice(brace.end);
    return brace.alternatives.every((alternative) => expand(before + alternative + after));
  };
  return expand(glob) ? globs : undefined;
}
