import { statSync } from 'node:fs';
import type { AgentTool } from 'dsh-user-interaction/agent-tool';
import { WorkspaceToolError } from '../tool-error.js';
import { resolvePath, type Workspace } from '../workspace/workspace.js';
import { eventLoopTurns } from './event-loop-turns.js';
import { expandBraces, globSteps, stepsMatcher } from './glob-pattern.js';
import { shownPath } from './tool-arguments.js';
import { declareTool, errorsSentence, parametersSchema, readArguments } from './tool-parameters.js';
import { walkFiles } from './walk-files.js';

/** Files one call lists at most; the rest is counted. */
export const LISTED_FILES = 1_000;

/** `list_files`' parameters and errors. */
export const LIST_FILES = declareTool({
  name: 'list_files',
  parameters: {
    path: { kind: 'text', description: 'The folder to list (default: the workspace).' },
    pattern: {
      kind: 'globs',
      description: 'A glob, or globs, the listed paths match (relative to the folder).',
    },
  },
  errors: {
    PATH_NOT_FOUND: '',
    NOT_TEXT: 'the path is a file, not a folder',
    ARGUMENTS_INVALID: 'a bad glob',
    PERMISSION_DENIED: 'the person did not allow listing a folder outside the workspace',
  },
});

const DESCRIPTION = `Lists the files of a folder of the workspace and everything below it, one path per line, relative to that folder and sorted, skipping what .gitignore files ignore and .git. Narrow it with pattern: a glob or a list of globs (such as "**/*.ts" or ["src/**", "*.md", "!src/gen/**"]; * ? [...] ** {a,b}, and ! before a glob leaves out what it matches). At most ${LISTED_FILES} files are listed; the result says how many more matched. ${errorsSentence(LIST_FILES.errors)}`;

/** The folder a search or a listing starts from: the workspace, or a folder in it. */
export async function folderOf(workspace: Workspace, given: string | undefined, tool: string) {
  const resolved = await resolvePath(workspace, given ?? '.');
  return { ...resolved, tool };
}

/**
 * Globs one argument may stand for once its braces are expanded, the longest glob, and the most
 * characters of all the expanded globs together (what each path is matched against).
 */
export const GLOB_LIMITS = { globs: 256, length: 1_000, total: 4_096 } as const;

/**
 * `pattern` (a glob or a list of globs) as a matcher, or `ARGUMENTS_INVALID`: a path matches
 * when it matches a glob of the list (any path when all begin with `!`) and none of its `!globs`.
 * Matched in time linear in the path (see `glob-pattern.ts`), whatever the glob.
 */
export function globMatcher(pattern: unknown, field: string): (path: string) => boolean {
  const patterns =
    pattern === undefined || pattern === null ? [] : Array.isArray(pattern) ? pattern : [pattern];
  if (patterns.some((item) => typeof item !== 'string' || item === '')) {
    throw new WorkspaceToolError(
      `\`${field}\` must be a glob or a list of globs.`,
      'ARGUMENTS_INVALID',
    );
  }
  const wanted: ((path: string) => boolean)[] = [];
  const unwanted: ((path: string) => boolean)[] = [];
  let total = 0;
  for (const item of patterns as string[]) {
    if (item.length > GLOB_LIMITS.length)
      throw new WorkspaceToolError(
        `\`${field}\` holds a glob longer than ${GLOB_LIMITS.length} characters.`,
        'ARGUMENTS_INVALID',
      );
    const negated = item.startsWith('!');
    const body = (negated ? item.slice(1) : item).replace(/^(\.\/)+/, '');
    const globs = expandBraces(body, GLOB_LIMITS.globs - wanted.length - unwanted.length);
    if (globs === undefined)
      throw new WorkspaceToolError(
        `\`${field}\` stands for more than ${GLOB_LIMITS.globs} globs once its braces are expanded.`,
        'ARGUMENTS_INVALID',
      );
    total += globs.reduce((sum, glob) => sum + glob.length, 0);
    if (total > GLOB_LIMITS.total)
      throw new WorkspaceToolError(
        `\`${field}\` stands for more than ${GLOB_LIMITS.total} characters of globs once its braces are expanded.`,
        'ARGUMENTS_INVALID',
      );
    for (const glob of globs) (negated ? unwanted : wanted).push(stepsMatcher(globSteps(glob)));
  }
  if (wanted.length === 0 && unwanted.length === 0) return () => true;
  return (path) =>
    (wanted.length === 0 || wanted.some((matches) => matches(path))) &&
    !unwanted.some((matches) => matches(path));
}

/** `list_files`: the files of a folder, .gitignore honoured, capped. */
export function createListFilesTool(workspace: Workspace): AgentTool {
  return {
    name: 'list_files',
    description: DESCRIPTION,
    parameters: parametersSchema(LIST_FILES.parameters),
    title: (args) => `List ${String((args as { path?: unknown } | null)?.path ?? 'files')}`,
    async describe(args) {
      const { path, pattern } = readArguments(LIST_FILES, args);
      globMatcher(pattern, 'pattern');
      const folder = await folderOf(workspace, path, 'list_files');
      return {
        kind: 'search',
        title: `List files in ${shownPath(folder.relative, folder.path)}`,
        locations: [{ path: folder.path }],
      };
    },
    async execute(args, context) {
      const matches = globMatcher(readArguments(LIST_FILES, args).pattern, 'pattern');
      const root = context.description?.locations?.[0]?.path as string;
      let stats: ReturnType<typeof statSync> | undefined;
      try {
        stats = statSync(root);
      } catch {
        stats = undefined;
      }
      if (stats === undefined)
        throw new WorkspaceToolError(`There is no folder ${root}.`, 'PATH_NOT_FOUND');
      if (!stats.isDirectory())
        throw new WorkspaceToolError(`${root} is a file: read it with read_file.`, 'NOT_TEXT');
      const listed: string[] = [];
      const notes: string[] = [];
      const turns = eventLoopTurns();
      let more = 0;
      const stop = () => context.signal.aborted;
      walk: for await (const files of walkFiles(root, stop, notes)) {
        for (const file of files) {
          if (turns.due()) {
            await turns.take();
            if (stop()) break walk;
          }
          if (!matches(file.relative)) continue;
          if (listed.length < LISTED_FILES) listed.push(file.relative);
          else more++;
        }
      }
      if (listed.length === 0) notes.unshift('(no file matches)');
      else if (more > 0)
        notes.unshift(`(${more} more files match; narrow the pattern to see them)`);
      return { ok: true, output: [...listed, ...notes].join('\n') };
    },
  };
}
