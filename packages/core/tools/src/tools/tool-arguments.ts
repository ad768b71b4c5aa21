import { WorkspaceToolError } from '../tool-error.js';

/** The arguments object of a call, or `ARGUMENTS_INVALID`. */
export function argumentsOf(args: unknown, tool: string): Record<string, unknown> {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new WorkspaceToolError(`${tool} takes a JSON object of arguments.`, 'ARGUMENTS_INVALID');
  }
  return args as Record<string, unknown>;
}

/** A text argument: required, or `undefined` when it may be absent. */
export function textArgument(
  fields: Record<string, unknown>,
  name: string,
  tool: string,
  required: true,
): string;
export function textArgument(
  fields: Record<string, unknown>,
  name: string,
  tool: string,
  required?: false,
): string | undefined;
export function textArgument(
  fields: Record<string, unknown>,
  name: string,
  tool: string,
  required = false,
): string | undefined {
  const value = fields[name];
  if (value === undefined || value === null) {
    if (required) throw new WorkspaceToolError(`${tool} needs \`${name}\`.`, 'ARGUMENTS_INVALID');
    return undefined;
  }
  if (typeof value !== 'string') {
    throw new WorkspaceToolError(`\`${name}\` of ${tool} must be a string.`, 'ARGUMENTS_INVALID');
  }
  return value;
}

/** A whole number argument from `minimum` up, or `undefined`. */
export function countArgument(
  fields: Record<string, unknown>,
  name: string,
  tool: string,
  minimum = 1,
): number | undefined {
  const value = fields[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < minimum) {
    throw new WorkspaceToolError(
      `\`${name}\` of ${tool} must be a whole number from ${minimum}.`,
      'ARGUMENTS_INVALID',
    );
  }
  return value;
}

/** A path as the person reads it: relative to the workspace when inside it. */
export function shownPath(relative: string | undefined, path: string): string {
  return relative ?? path;
}

/** The `path` parameter of the tools that take one file. */
export const FILE_PATH_PARAMETER = {
  type: 'string',
  description: 'The file, relative to the workspace or absolute.',
} as const;
