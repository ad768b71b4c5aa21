import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { inertText } from 'dsh-agent/command-line';
import type { McpServerConfig } from 'dsh-mcp';
import { API_KEY_VARIABLES } from 'dsh-user-interaction/host';
import {
  contentDigest,
  readProjectFile,
  trustedDigest,
  trustProjectFile,
} from './project-mcp-trust.js';

/** The project file, as Claude Code writes it at a project's root. */
export const PROJECT_MCP_FILE = '.mcp.json';

/** Where and how a workspace's `.mcp.json` is read. */
export interface ProjectMcpOptions {
  /** The workspace folder (absolute). */
  readonly workspace: string;
  /** The person's state folder, where trust is kept (never the workspace). */
  readonly stateDir: string;
  /**
   * `--project-mcp SHA256`: the person trusts the file whose SHA-256 starts with this (at least
   * `TRUST_DIGITS` hexadecimal digits, as the warning and `sha256sum` print it), and no other.
   */
  readonly trust: string | undefined;
  /** Where `${VAR}` in the file is looked up, once it is trusted. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Names `--mcp-config` gave already: those win. */
  readonly taken: ReadonlySet<string>;
  readonly say: (line: string) => void;
}

/** The project's servers to start (none unless trusted), or a usage error's exit status. */
export type ProjectMcp = { readonly configs: McpServerConfig[] } | { readonly exit: 2 };

const NONE: ProjectMcp = { configs: [] };

/** What this file needs of dsh-mcp: loaded only once a folder's file is found. */
type McpReader = Pick<typeof import('dsh-mcp'), 'isMcpError' | 'readMcpConfig'>;

/**
 * Where a project file's `${NAME}` is looked up: the environment without the agent's own API
 * keys, which no command of the agent is given either (a folder's file naming one in a header or
 * an address would send it away without running anything). Such a file fails to read, saying the
 * variable is not set.
 */
function projectVariables(
  env: Readonly<Record<string, string | undefined>>,
): Readonly<Record<string, string | undefined>> {
  const variables = { ...env };
  for (const name of API_KEY_VARIABLES) delete variables[name];
  return variables;
}

/**
 * How much of the SHA-256 `--project-mcp` takes at least: 128 bits. The one who writes the file
 * may write two (one harmless to show, one to run) whose digests begin alike: a collision of
 * n bits takes about 2^(n/2) tries, seconds for 64 bits, out of reach for 128.
 */
export const TRUST_DIGITS = 32;

/** How much of the file's summary a line shows; the person is asked to read the file anyway. */
const LONGEST_SUMMARY = 1_000;

/** Every `${NAME}` the file uses, unexpanded: the summary shows what would be looked up. */
const AS_WRITTEN: Readonly<Record<string, string>> = new Proxy(
  {},
  { get: (_, name) => (typeof name === 'string' ? `\${${name}}` : undefined) },
);

/** One server as it would start: the chosen command or address, and what else it is given. */
function serverSummary(config: McpServerConfig): string {
  const keys = (table: Readonly<Record<string, string>>, what: string) =>
    Object.keys(table).length === 0 ? [] : [`${what} ${Object.keys(table).join(', ')}`];
  const parts =
    config.transport === 'stdio'
      ? [
          [config.command, ...config.args].join(' '),
          ...keys(config.env, 'env'),
          ...(config.cwd === undefined ? [] : [`in ${config.cwd}`]),
        ]
      : [config.url, ...keys(config.headers, 'headers')];
  return `${config.name} (${parts.join('; ')})`;
}

/**
 * What the file would start, read by the same parser that starts it (`${NAME}` left as written):
 * each server's command and arguments or its address, the names of its `env` or `headers`, and
 * every variable it looks up. Inert, and cut (saying so) past `LONGEST_SUMMARY`.
 */
function serversOf(bytes: Buffer, { isMcpError, readMcpConfig }: McpReader): string {
  const text = bytes.toString('utf8');
  let shown: string;
  try {
    const configs = readMcpConfig(text, { variables: AS_WRITTEN });
    shown = configs.length === 0 ? 'no servers' : configs.map(serverSummary).join(', ');
  } catch (error) {
    return isMcpError(error) ? inertText(error.message) : 'not valid JSON';
  }
  const used = [...new Set(text.match(/\$\{[A-Za-z_][A-Za-z0-9_]*/g) ?? [])].map((name) =>
    name.slice(2),
  );
  if (used.length > 0) shown += `; it reads the variables ${used.join(', ')}`;
  return shown.length > LONGEST_SUMMARY
    ? `${inertText(shown.slice(0, LONGEST_SUMMARY))}… (cut: read the file)`
    : inertText(shown);
}

/**
 * The servers of the workspace's `.mcp.json` that may start. A folder's file names commands of
 * the folder's choosing, so none starts without the person's consent to exactly that content:
 * `--project-mcp` trusts the file as it is now (its SHA-256, kept in the state folder with the
 * workspace's path), and a later start runs it without the flag until its content changes.
 * Without consent, a line says what the file would start and how to trust it; nothing runs.
 */
export async function projectMcpServers(options: ProjectMcpOptions): Promise<ProjectMcp> {
  const { say } = options;
  const optIn = options.trust !== undefined;
  const trust = options.trust?.trim().toLowerCase();
  if (trust !== undefined && !new RegExp(`^[0-9a-f]{${TRUST_DIGITS},64}$`).test(trust)) {
    say(
      `--project-mcp needs the SHA-256 of the ${PROJECT_MCP_FILE} you read, as the line about the file (or sha256sum) prints it: all 64 hexadecimal digits, or the first ${TRUST_DIGITS} at least`,
    );
    return { exit: 2 };
  }
  const workspace = realpathSync(options.workspace);
  const bytes = readProjectFile(join(workspace, PROJECT_MCP_FILE));
  if (bytes === undefined) {
    if (optIn) say(`--project-mcp: this folder has no ${PROJECT_MCP_FILE}; nothing to start`);
    return NONE;
  }
  if (typeof bytes === 'string') {
    say(`${PROJECT_MCP_FILE} of this folder was not read: ${bytes}`);
    return optIn ? { exit: 2 } : NONE;
  }
  // The MCP client (about 60 KB) loads only now: a folder without the file never waits for it.
  const mcp: McpReader = await import('dsh-mcp');
  const { isMcpError, readMcpConfig } = mcp;
  const digest = contentDigest(bytes);
  if (trust !== undefined && !digest.startsWith(trust)) {
    // Changed between the reading and the start: the flag trusts what was read, nothing else.
    say(
      `--project-mcp: ${PROJECT_MCP_FILE} of this folder is not the file you trusted (its sha256 is now ${digest}, not ${trust}); nothing started. It names: ${serversOf(bytes, mcp)}`,
    );
    return { exit: 2 };
  }
  const trusted = trustedDigest(options.stateDir, workspace);
  if (trusted !== digest && !optIn) {
    const why =
      trusted === undefined
        ? "a folder's file may run any command, and you have not trusted this one"
        : 'it changed since you trusted it';
    say(
      `${PROJECT_MCP_FILE} of this folder names MCP servers: ${serversOf(bytes, mcp)}. Not started: ${why}. ` +
        `Read it, then run with --project-mcp ${digest} to trust it as it is now (its sha256, as sha256sum prints it).`,
    );
    return NONE;
  }
  let configs: McpServerConfig[];
  try {
    configs = readMcpConfig(bytes.toString('utf8'), { variables: projectVariables(options.env) });
  } catch (error) {
    const why = isMcpError(error) ? error.message : 'it cannot be read';
    say(`${PROJECT_MCP_FILE}: ${why}`);
    return optIn ? { exit: 2 } : NONE;
  }
  if (trusted !== digest) {
    try {
      trustProjectFile(options.stateDir, workspace, digest);
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      say(`--project-mcp: the trust could not be kept (${String(code)}); asked again next time`);
    }
    say(
      `--project-mcp: trusted ${PROJECT_MCP_FILE} of this folder as it is now (sha256 ${digest}); ` +
        'its servers start now, and at later starts until it changes',
    );
  }
  const started: McpServerConfig[] = [];
  for (const config of configs) {
    if (options.taken.has(config.name)) {
      say(
        `${PROJECT_MCP_FILE}: the server ${inertText(config.name)} of --mcp-config is used instead`,
      );
      continue;
    }
    // A relative command or path in the file means the project's folder, as in Claude Code.
    started.push(
      config.transport === 'stdio' && config.cwd === undefined
        ? { ...config, cwd: workspace }
        : config,
    );
  }
  return { configs: started };
}
