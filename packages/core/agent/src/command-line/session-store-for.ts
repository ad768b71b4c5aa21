import { resolve } from 'node:path';
import { openSessionStore, type SessionStore } from '../session/session-store.js';
import { defaultStateDir } from '../session/state-dir.js';
import type { AgentCommand } from './agent-command-line.js';

/**
 * The state folder a program's command line names: `--state-dir`, else the default state folder
 * of `env`. Conversations and rules files live there.
 */
export function stateDirFor(
  command: Extract<AgentCommand, { kind: 'run' }>,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  return command.stateDir === undefined ? defaultStateDir(env) : resolve(command.stateDir);
}

/**
 * The session store a program's command line asks for: `--state-dir`, else the default
 * state folder of `env`; none with `--no-history` (conversations stay in memory).
 */
export function sessionStoreFor(
  command: Extract<AgentCommand, { kind: 'run' }>,
  env: Readonly<Record<string, string | undefined>> = process.env,
): SessionStore | undefined {
  if (!command.history) return undefined;
  return openSessionStore({ dir: stateDirFor(command, env) });
}
