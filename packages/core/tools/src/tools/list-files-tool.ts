import { statSync } from 'node:fs';
import type { AgentTool } from 'dsh-agent';
import { loadPicomatch } from '../cjs-dependencies.js';
import { WorkspaceToolError } from '../tool-error.js';
import { resolvePath, type Workspace } from '../workspace/workspace.js';
import { argumentsOf, shownPath, textArgument } from './tool-arguments.js';
import { walkFiles } from './walk-files.js';

/** Files one call lists at most; the rest is counted. */
export const LISTED_FILES = 1_000;

const DESCRIPTION = `Lists the files of a folder of the workspace and everything below it, one path per line, relative to that folder and sorted, skipping what .gitignore files ignore and .git. Narrow it with pattern: a glob or a list of globs (such as "**/*.ts" or ["src/**", "*.md"]). At most ${LISTED_FILES} files are listed; the result says how many more matched. Errors: PATH_NOT_FOUND, NOT_TEXT (the path is a file, not a folder), ARGUMENTS_INVALID (a bad glob), PERMISSION_DENIED (the person did not allow listing a folder outside the workspace).`;

/** The folder a search or a listing starts from: the workspace, or a folder in it. */
export async function folderOf(workspace: Workspace, given: string | undefined, tool: string) {
  const resolved = await resolvePath(workspace, given ?? '.');
  return { ...resolved, tool };
}

/** `pattern` as a matcher, or `ARGUMENTS_INVALID`. */
export function globMatcher(pattern: unknown, field: string): (path: string) => boolean {
  const patterns =
    pattern === undefined || pattern === null ? [] : Array.isArray(pattern) ? pattern : [pattern];
  if (patterns.some((item) => typeof item !== 'string' || item === '')) {
    throw new WorkspaceToolError(
      `\`${field}\` must be a glob or a list of globs.`,
      'ARGUMENTS_INVALID',
    );
  }
  if (patterns.length === 0) return () => true;
  try {
    const match = loadPicomatch()(patterns as string[], { dot: true });
    return (path) => match(path);
  } catch (error) {
    throw new WorkspaceToolError(`\`${field}\` is not a valid glob.`, 'ARGUMENTS_INVALID', {
      cause: error,
    });
  }
}

/** `list_files`: the files of a folder, .gitignore honoured, capped. */
export function createListFilesTool(workspace: Workspace): AgentTool {
  return {
    name: 'list_files',
    description: DESCRIPTION,
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'The folder to list (default: the workspace).' },
        pattern: {
          anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
          description: 'A glob, or globs, the listed paths match (relative to the folder).',
        },
      },
      additionalProperties: false,
    },
    title: (args) => `List ${String((args as { path?: unknown } | null)?.path ?? 'files')}`,
    async describe(args) {
      const fields = argumentsOf(args, 'list_files');
      globMatcher(fields.pattern, 'pattern');
      const folder = await folderOf(
        workspace,
        textArgument(fields, 'path', 'list_files'),
        'list_files',
      );
      return {
        kind: 'search',
        title: `List files in ${shownPath(folder.relative, folder.path)}`,
        locations: [{ path: folder.path }],
      };
    },
    async execute(args, context) {
      const fields = argumentsOf(args, 'list_files');
      const matches = globMatcher(fields.pattern, 'pattern');
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
      let more = 0;
      for await (const files of walkFiles(root, () => context.signal.aborted)) {
        for (const file of files) {
          if (!matches(file.relative)) continue;
          if (listed.length < LISTED_FILES) listed.push(file.relative);
          else more++;
        }
      }
      const notes =
        listed.length === 0
          ? ['(no file matches)']
          : more > 0
            ? [`(${more} more files match; narrow the pattern to see them)`]
            : [];
      return { ok: true, output: [...listed, ...notes].join('\n') };
    },
  };
}
