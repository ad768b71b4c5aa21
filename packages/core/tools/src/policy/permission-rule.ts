import { loadPicomatch } from '../cjs-dependencies.js';
import { WorkspaceToolError } from '../tool-error.js';
import { commandName } from './command/command-name.js';

/** The default command tool: its rules are command prefixes; every other tool's are path globs. */
export const COMMAND_TOOL = 'run_command';

/** A rule as read: `TOOL`, or `TOOL:PATTERN`. */
export interface PermissionRule {
  /** The rule as written (and as a rules file holds it). */
  readonly text: string;
  readonly tool: string;
  /** For the command tool (`run_command`): the command prefix, in words. */
  readonly prefix?: readonly string[];
  /** For a file tool: the path glob, relative to the workspace. */
  readonly glob?: string;
  /** Whether a path (relative to the workspace, `/`-separated) matches the glob. */
  matchesPath?(path: string): boolean;
}

const TOOL = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Reads a rule; throws `RULE_INVALID` saying what a rule looks like. The rules of `commandTool`
 * (default `run_command`) are command prefixes; every other tool's are path globs.
 */
export function parseRule(text: unknown, commandTool: string = COMMAND_TOOL): PermissionRule {
  const fail = (why: string): never => {
    throw new WorkspaceToolError(
      `The rule ${JSON.stringify(String(text).slice(0, 200))} ${why}: a rule is TOOL or TOOL:PATTERN, such as ${commandTool}:npm test or write_file:docs/**.`,
      'RULE_INVALID',
    );
  };
  if (typeof text !== 'string' || text.trim() === '') return fail('is empty');
  const written = text.trim();
  const colon = written.indexOf(':');
  const tool = colon === -1 ? written : written.slice(0, colon);
  if (!TOOL.test(tool)) return fail('does not start with a tool name');
  if (colon === -1) return Object.freeze({ text: written, tool });
  const pattern = written.slice(colon + 1).trim();
  if (pattern === '') return fail('has nothing after its colon');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a rule must not carry them.
  if (/[\u0000-\u001f\u007f]/.test(pattern)) return fail('holds a control character');
  if (tool === commandTool) {
    const prefix = pattern.split(/\s+/);
    return Object.freeze({
      text: `${tool}:${prefix.join(' ')}`,
      tool,
      prefix: Object.freeze(prefix),
    });
  }
  if (pattern.startsWith('/') || pattern.split('/').includes('..')) {
    return fail('has a glob that leaves the workspace (globs are relative to it)');
  }
  const matcher = loadPicomatch()(pattern, { dot: true });
  return Object.freeze({
    text: `${tool}:${pattern}`,
    tool,
    glob: pattern,
    matchesPath: (path: string) => matcher(path),
  });
}

/**
 * Whether a command rule's prefix covers a command's words: word by word, the first compared
 * by the name the command is known by. For a deny rule, a path that ends in the name is the
 * same command (`./rm` is denied like `rm`); for an allow rule, it is not.
 */
export function prefixMatches(
  prefix: readonly string[],
  words: readonly (string | null)[],
  effect: 'allow' | 'deny',
): boolean {
  // Indexes, not copies: this runs for every part of a command against every rule.
  const first = words[0];
  const wantedName = prefix[0];
  if (first === null || first === undefined || wantedName === undefined) return false;
  const name = commandName(first);
  const base = first.slice(first.lastIndexOf('/') + 1);
  if (name !== wantedName && !(effect === 'deny' && base === wantedName)) return false;
  if (effect === 'allow') {
    // Allowed word by word, exactly: `npm test` does not allow `npm -g test`.
    if (words.length < prefix.length) return false;
    for (let index = 1; index < prefix.length; index++) {
      if (words[index] !== prefix[index]) return false;
    }
    return true;
  }
  // A deny rule's words may have options between them (`git -C x push` is `git push`), and a
  // word known only at run time might be any of them.
  let next = 1;
  for (let index = 1; index < words.length && next < prefix.length; index++) {
    const word = words[index];
    if (word === null || word === prefix[next]) next++;
  }
  return next === prefix.length;
}
