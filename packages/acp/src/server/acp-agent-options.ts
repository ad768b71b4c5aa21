import type { Implementation } from '@agentclientprotocol/sdk';
import {
  type AgentTool,
  checkAgentOptions,
  type PermissionPolicy,
  type SessionStore,
} from 'dsh-agent';
import { packageAgentInfo } from '../agent-info.js';
import type { SessionAgentOptions } from './acp-session.js';

/** Options of `serveAcpAgent`: the agent every session gets, and how the server presents itself. */
export interface AcpAgentServerOptions extends SessionAgentOptions {
  /** The `agentInfo` of `initialize` (default: this package's name and version). */
  readonly agentInfo?: Implementation;
  /** Receives one line per notable event (a client connected, MCP servers ignored, a failure). */
  readonly log?: (line: string) => void;
  /**
   * Where sessions are saved (see `openSessionStore` in `dsh-agent`): with one, sessions
   * survive a restart and `session/load` and `session/list` are offered; without one, every
   * session lives in memory only.
   */
  readonly sessionStore?: SessionStore;
  /**
   * The tools and permission policy of each session, for its working directory (the
   * workspace): called at `session/new` and `session/load`. Its tools come after `tools`; its
   * policy replaces `permissions`. A failure fails that request.
   */
  readonly toolsFor?: (cwd: string) => SessionTools | Promise<SessionTools>;
  /**
   * For a client without form elicitation, asks questions with one choice as permission
   * requests (default: false: such a client gets no questions, and the model is told to ask in
   * its reply). Only for clients known to show those requests to a person: one that answers
   * them by itself (acpx `--approve-all`) would send the model an answer nobody gave.
   */
  readonly questionsAsPermissions?: boolean;
  /**
   * The MCP servers (by the names the editor gives them) whose `readOnlyHint` the person
   * trusts: their tools that say they only read run unasked, unless a deny rule names them.
   * Default: none; a server's annotations alone never skip an approval.
   */
  readonly mcpTrustReadOnly?: readonly string[];
}

/** What `toolsFor` gives a session. */
export interface SessionTools {
  readonly tools?: readonly AgentTool[];
  readonly permissions?: PermissionPolicy;
  /**
   * One line on how the session's tools run, such as whether commands run in the sandbox: sent
   * as `_meta.dsh.sandbox` of the `session/new` response.
   */
  readonly sandboxStatus?: string;
}

/** `AcpAgentServerOptions` once checked, with their defaults: what the server runs on. */
export interface CheckedAcpAgentOptions {
  readonly agentInfo: Implementation;
  /** The given log, made safe: it never throws, whatever the given one does. */
  readonly log: (line: string) => void;
  readonly sessionStore: SessionStore | undefined;
  readonly toolsFor: AcpAgentServerOptions['toolsFor'];
  readonly questionsAsPermissions: boolean;
  readonly mcpTrustReadOnly: readonly string[];
  /** What the agent of every session is made of (all the options but the server's own). */
  readonly agent: SessionAgentOptions;
}

function invalid(problem: string): TypeError {
  return new TypeError(`serveAcpAgent(): ${problem}.`);
}

function isFunction(value: unknown): boolean {
  return typeof value === 'function';
}

/**
 * Checks the options of `serveAcpAgent` without serving anything or making an agent, and returns
 * them with their defaults. Throws a `TypeError` naming the first invalid option: the server's
 * own, then those of the sessions' agents (as `checkAgentOptions` of `dsh-agent` does).
 */
export function checkAcpAgentOptions(options: AcpAgentServerOptions): CheckedAcpAgentOptions {
  if (typeof options !== 'object' || options === null)
    throw invalid('the options must be an object');
  // Each option is read once, here: a getter cannot pass the check and then give another value.
  const {
    agentInfo = packageAgentInfo(),
    log,
    sessionStore,
    toolsFor,
    questionsAsPermissions = false,
    mcpTrustReadOnly = [],
    ...agent
  } = options;
  if (typeof agentInfo?.name !== 'string' || typeof agentInfo.version !== 'string') {
    throw invalid('`agentInfo` needs a `name` and a `version`, both strings');
  }
  if (log !== undefined && !isFunction(log)) throw invalid('`log` must be a function');
  const store = sessionStore as Partial<SessionStore> | undefined;
  if (
    store !== undefined &&
    !(isFunction(store?.create) && isFunction(store.open) && isFunction(store.list))
  ) {
    throw invalid('`sessionStore` needs create, open and list methods (see openSessionStore)');
  }
  if (toolsFor !== undefined && !isFunction(toolsFor))
    throw invalid('`toolsFor` must be a function');
  if (typeof questionsAsPermissions !== 'boolean') {
    throw invalid('`questionsAsPermissions` must be true or false');
  }
  if (
    !Array.isArray(mcpTrustReadOnly) ||
    !mcpTrustReadOnly.every((name) => typeof name === 'string')
  )
    throw invalid('`mcpTrustReadOnly` must be a list of server names');
  checkAgentOptions(agent);
  return {
    agentInfo,
    log: (line) => {
      try {
        log?.(line);
      } catch {
        // The line is lost; the sessions go on.
      }
    },
    sessionStore,
    toolsFor,
    questionsAsPermissions,
    // Copied: a caller's list cannot change after the check.
    mcpTrustReadOnly: [...mcpTrustReadOnly],
    agent,
  };
}
