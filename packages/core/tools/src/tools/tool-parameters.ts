import { WorkspaceToolError, type WorkspaceToolErrorCode } from '../tool-error.js';

/**
 * A parameter of a workspace tool, by its name in the arguments: what it holds, and what the
 * model reads about it. The one definition the JSON schema, the argument check and the typed
 * arguments a tool gets are all derived from (as `question-shape.ts` does for questions).
 */
export type ParameterDefinition =
  | { readonly kind: 'text'; readonly required?: true; readonly description: string }
  | {
      /** A whole number from `minimum`, up to `maximum` when it has one. */
      readonly kind: 'count';
      readonly minimum: number;
      readonly maximum?: number;
      /** What a number is counted in, for the message past `maximum` ("seconds"). */
      readonly unit?: string;
      readonly description: string;
    }
  | { readonly kind: 'flag'; readonly description: string }
  | { readonly kind: 'choice'; readonly values: readonly string[]; readonly description: string }
  /** A glob or a list of globs (checked further by `globMatcher`). */
  | { readonly kind: 'globs'; readonly description: string };

/** A tool's parameters, by name. */
export type ParameterTable = Readonly<Record<string, ParameterDefinition>>;

/** The codes a call can end with that the agent loop gives, not the tool. */
type LoopErrorCode = 'PERMISSION_DENIED' | 'TURN_CANCELLED';

/** What a tool can return as an error, each code with when (said to the model; empty: nothing). */
export type ErrorTable = Readonly<Partial<Record<WorkspaceToolErrorCode | LoopErrorCode, string>>>;

/** A workspace tool's parameters and errors, declared once. */
export interface ToolDeclaration<P extends ParameterTable> {
  readonly name: string;
  readonly parameters: P;
  readonly errors: ErrorTable;
}

/** Declares a tool's parameters and errors (the parameter types kept exact). */
export function declareTool<const P extends ParameterTable>(
  declaration: ToolDeclaration<P>,
): ToolDeclaration<P> {
  return declaration;
}

type ValueOf<D extends ParameterDefinition> = D extends { readonly kind: 'text' }
  ? D extends { readonly required: true }
    ? string
    : string | undefined
  : D extends { readonly kind: 'count' }
    ? number | undefined
    : D extends { readonly kind: 'flag' }
      ? boolean
      : D extends { readonly kind: 'choice'; readonly values: readonly (infer V)[] }
        ? V | undefined
        : readonly string[] | undefined;

/** The arguments of a call as its tool reads them, typed by the declaration. */
export type ArgumentsOf<P extends ParameterTable> = { readonly [K in keyof P]: ValueOf<P[K]> };

/** The JSON schema the model is given for a tool's arguments. */
export function parametersSchema(parameters: ParameterTable): object {
  const properties: Record<string, object> = {};
  const required: string[] = [];
  for (const [name, parameter] of Object.entries(parameters)) {
    const { description } = parameter;
    switch (parameter.kind) {
      case 'text':
        properties[name] = { type: 'string', description };
        if (parameter.required === true) required.push(name);
        break;
      case 'count':
        properties[name] = {
          type: 'integer',
          minimum: parameter.minimum,
          ...(parameter.maximum !== undefined && { maximum: parameter.maximum }),
          description,
        };
        break;
      case 'flag':
        properties[name] = { type: 'boolean', description };
        break;
      case 'choice':
        properties[name] = { type: 'string', enum: [...parameter.values], description };
        break;
      case 'globs':
        properties[name] = {
          anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
          description,
        };
        break;
    }
  }
  return {
    type: 'object',
    properties,
    ...(required.length > 0 && { required }),
    additionalProperties: false,
  };
}

/** The sentence that closes a tool's description: every code it can return, and when. */
export function errorsSentence(errors: ErrorTable): string {
  const said = Object.entries(errors).map(([code, when]) =>
    when === '' ? code : `${code} (${when})`,
  );
  return `Errors: ${said.join(', ')}.`;
}

function invalid(message: string): never {
  throw new WorkspaceToolError(message, 'ARGUMENTS_INVALID');
}

/** One argument as its definition reads it; `null` is taken as left out. */
function argumentOf(
  tool: string,
  name: string,
  parameter: ParameterDefinition,
  value: unknown,
): unknown {
  if (value === undefined || value === null) {
    if (parameter.kind === 'text' && parameter.required === true)
      invalid(`${tool} needs \`${name}\`.`);
    return parameter.kind === 'flag' ? false : undefined;
  }
  switch (parameter.kind) {
    case 'text':
      if (typeof value !== 'string') invalid(`\`${name}\` of ${tool} must be a string.`);
      return value;
    case 'count': {
      const { minimum, maximum, unit } = parameter;
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < minimum)
        invalid(`\`${name}\` of ${tool} must be a whole number from ${minimum}.`);
      if (maximum !== undefined && value > maximum)
        invalid(`\`${name}\` is at most ${maximum}${unit === undefined ? '' : ` ${unit}`}.`);
      return value;
    }
    case 'flag':
      if (typeof value !== 'boolean') invalid(`\`${name}\` of ${tool} must be true or false.`);
      return value;
    case 'choice':
      if (!parameter.values.includes(value as string))
        invalid(
          `\`${name}\` is ${parameter.values.map((choice) => `"${choice}"`).join(' or ')}, or left out.`,
        );
      return value;
    case 'globs': {
      const globs = Array.isArray(value) ? (value as unknown[]) : [value];
      if (globs.some((glob) => typeof glob !== 'string'))
        invalid(`\`${name}\` must be a glob or a list of globs.`);
      return globs;
    }
  }
}

/**
 * The arguments of a call, each checked against its declaration, or `ARGUMENTS_INVALID`
 * saying which is wrong. Arguments not declared are not read.
 */
export function readArguments<P extends ParameterTable>(
  declaration: ToolDeclaration<P>,
  args: unknown,
): ArgumentsOf<P> {
  const { name: tool, parameters } = declaration;
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    invalid(`${tool} takes a JSON object of arguments.`);
  }
  const fields = args as Record<string, unknown>;
  const read: Record<string, unknown> = {};
  for (const [name, parameter] of Object.entries(parameters)) {
    read[name] = argumentOf(tool, name, parameter, fields[name]);
  }
  return read as ArgumentsOf<P>;
}
