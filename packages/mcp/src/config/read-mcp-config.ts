import { McpError } from '../mcp-error.js';

/** A server started as a child process, spoken to over its stdin and stdout. */
export interface McpStdioServerConfig {
  readonly name: string;
  readonly transport: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  /** Set on top of the few variables every child gets (never the agent's whole environment). */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** A server reached over Streamable HTTP. */
export interface McpHttpServerConfig {
  readonly name: string;
  readonly transport: 'http';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** One server of an `mcpServers` configuration. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** Where `${NAME}` in a configuration is looked up (default: the process's environment). */
export interface ReadMcpConfigOptions {
  readonly variables?: Readonly<Record<string, string | undefined>>;
}

function invalid(field: string, problem: string): McpError {
  return new McpError(`mcpServers: ${field} ${problem}`, 'MCP_CONFIG_INVALID');
}

function object(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalid(field, 'must be an object');
  return value as Record<string, unknown>;
}

/** `${NAME}` and `${NAME:-fallback}`, as Claude Code expands them; a missing variable is an error. */
function expand(text: string, field: string, variables: ReadMcpConfigOptions['variables']): string {
  return text.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
    (_, name: string, fallback?: string) => {
      const value = variables?.[name] ?? fallback;
      if (value === undefined) throw invalid(field, `uses \${${name}}, which is not set`);
      return value;
    },
  );
}

function text(value: unknown, field: string, variables: ReadMcpConfigOptions['variables']): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw invalid(field, 'must be non-empty text');
  return expand(value, field, variables);
}

function texts(
  value: unknown,
  field: string,
  variables: ReadMcpConfigOptions['variables'],
): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw invalid(field, 'must be a list of text');
  return value.map((item, index) => {
    if (typeof item !== 'string') throw invalid(`${field}[${index}]`, 'must be text');
    return expand(item, `${field}[${index}]`, variables);
  });
}

function table(
  value: unknown,
  field: string,
  variables: ReadMcpConfigOptions['variables'],
): Record<string, string> {
  if (value === undefined) return {};
  const entries = Object.entries(object(value, field)).map(([key, item]) => {
    if (typeof item !== 'string') throw invalid(`${field}.${key}`, 'must be text');
    return [key, expand(item, `${field}.${key}`, variables)] as const;
  });
  return Object.fromEntries(entries);
}

function server(
  name: string,
  raw: unknown,
  variables: ReadMcpConfigOptions['variables'],
): McpServerConfig {
  const field = `mcpServers.${name}`;
  // The name is in every rule (`mcp:<server>:<tool>`) and every question's header.
  if (!/^[\w.-]{1,64}$/.test(name))
    throw invalid(field, 'needs a name of letters, digits, ".", "_" or "-" (at most 64)');
  const entry = object(raw, field);
  const type = entry.type;
  if (type === 'sse')
    throw invalid(
      `${field}.type`,
      'is "sse": that transport is deprecated and not supported; use Streamable HTTP ("http")',
    );
  if (entry.command !== undefined) {
    if (type !== undefined && type !== 'stdio')
      throw invalid(`${field}.type`, `is ${JSON.stringify(type)} but the server has a "command"`);
    return {
      name,
      transport: 'stdio',
      command: text(entry.command, `${field}.command`, variables),
      args: texts(entry.args, `${field}.args`, variables),
      env: table(entry.env, `${field}.env`, variables),
      ...(entry.cwd !== undefined && { cwd: text(entry.cwd, `${field}.cwd`, variables) }),
    };
  }
  // Gemini writes Streamable HTTP as `httpUrl`; Claude and Cursor write `url` (with `type: "http"`).
  const urlField = entry.httpUrl !== undefined ? 'httpUrl' : 'url';
  if (entry[urlField] === undefined)
    throw invalid(field, 'needs a "command" (stdio) or a "url" (Streamable HTTP)');
  if (type !== undefined && type !== 'http' && type !== 'streamable-http')
    throw invalid(`${field}.type`, `is ${JSON.stringify(type)}; use "stdio" or "http"`);
  const url = text(entry[urlField], `${field}.${urlField}`, variables);
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw invalid(`${field}.${urlField}`, 'must be an http or https address');
  return {
    name,
    transport: 'http',
    url,
    headers: table(entry.headers, `${field}.headers`, variables),
  };
}

/**
 * Reads an `mcpServers` configuration as Claude, Cursor and Gemini write it (JSON text or the
 * parsed object): stdio servers (`command`, `args`, `env`, `cwd`) and Streamable HTTP servers
 * (`url` or `httpUrl`, `headers`), `${VAR}` expanded. A server with `"disabled": true` is left
 * out. Anything else fails with `MCP_CONFIG_INVALID`, naming the field.
 */
export function readMcpConfig(
  config: unknown,
  options: ReadMcpConfigOptions = {},
): McpServerConfig[] {
  let parsed = config;
  if (typeof config === 'string') {
    try {
      parsed = JSON.parse(config);
    } catch (error) {
      throw new McpError('mcpServers: the configuration is not JSON', 'MCP_CONFIG_INVALID', {
        cause: error,
      });
    }
  }
  const root = object(parsed, 'the configuration');
  const servers = object(root.mcpServers ?? {}, 'mcpServers');
  const variables = options.variables ?? process.env;
  return Object.entries(servers)
    .filter(([, entry]) => (entry as { disabled?: unknown } | null)?.disabled !== true)
    .map(([name, entry]) => server(name, entry, variables));
}
