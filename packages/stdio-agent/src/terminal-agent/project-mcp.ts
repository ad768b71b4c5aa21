import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { inertText } from 'dsh-agent/command-line';
import { isMcpError, type McpServerConfig, readMcpConfig } from 'dsh-mcp';
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

/**
 * How much of the SHA-256 `--project-mcp` takes at least: 64 bits, so that no file made to start
 * with the same digits (a second preimage of 16 digits) can take the place of the one read.
 */
export const TRUST_DIGITS = 16;

/** `name (command)` or `name (url)` for each server, as the file writes them (nothing expanded). */
function serversOf(bytes: Buffer): string {
  try {
    const servers = (JSON.parse(bytes.toString('utf8')) as { mcpServers?: unknown })?.mcpServers;
    if (typeof servers !== 'object' || servers === null) return 'no "mcpServers"';
    const shown = Object.entries(servers).map(([name, server]) => {
      const fields = (server ?? {}) as {
        command?: unknown;
        args?: unknown;
        url?: unknown;
        httpUrl?: unknown;
      };
      const what = [fields.command, ...(Array.isArray(fields.args) ? fields.args : [])]
        .filter((part) => typeof part === 'string')
        .join(' ');
      const target = what !== '' ? what : String(fields.url ?? fields.httpUrl ?? '?');
      return `${name} (${target.length > 80 ? `${target.slice(0, 79)}…` : target})`;
    });
    return inertText(shown.join(', ').slice(0, 600));
  } catch {
    return 'not valid JSON';
  }
}

/**
 * The servers of the workspace's `.mcp.json` that may start. A folder's file names commands of
 * the folder's choosing, so none starts without the person's consent to exactly that content:
 * `--project-mcp` trusts the file as it is now (its SHA-256, kept in the state folder with the
 * workspace's path), and a later start runs it without the flag until its content changes.
 * Without consent, a line says what the file would start and how to trust it; nothing runs.
 */
export function projectMcpServers(options: ProjectMcpOptions): ProjectMcp {
  const { say } = options;
  const optIn = options.trust !== undefined;
  const trust = options.trust?.trim().toLowerCase();
  if (trust !== undefined && !new RegExp(`^[0-9a-f]{${TRUST_DIGITS},64}$`).test(trust)) {
    say(
      `--project-mcp needs the SHA-256 of the ${PROJECT_MCP_FILE} you read: its first ${TRUST_DIGITS} hexadecimal digits or more, as the line about the file (or sha256sum) prints them`,
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
  const digest = contentDigest(bytes);
  const shown = digest.slice(0, TRUST_DIGITS);
  if (trust !== undefined && !digest.startsWith(trust)) {
    // Changed between the reading and the start: the flag trusts what was read, nothing else.
    say(
      `--project-mcp: ${PROJECT_MCP_FILE} of this folder is not the file you trusted (its sha256 is now ${shown}, not ${trust}); nothing started. It names: ${serversOf(bytes)}`,
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
      `${PROJECT_MCP_FILE} of this folder names MCP servers: ${serversOf(bytes)}. Not started: ${why}. ` +
        `Read it, then run with --project-mcp ${shown} to trust it as it is now (the start of its sha256).`,
    );
    return NONE;
  }
  let configs: McpServerConfig[];
  try {
    configs = readMcpConfig(bytes.toString('utf8'), { variables: options.env });
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
      `--project-mcp: trusted ${PROJECT_MCP_FILE} of this folder as it is now (sha256 ${shown}); ` +
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
