/** A path as the person reads it: relative to the workspace when inside it. */
export function shownPath(relative: string | undefined, path: string): string {
  return relative ?? path;
}

/** The `path` parameter of the tools that take one file. */
export const FILE_PATH_PARAMETER = {
  kind: 'text',
  required: true,
  description: 'The file, relative to the workspace or absolute.',
} as const;
