import { resolve } from 'node:path';
import { openSessionStore, type SessionStore } from '../session/session-store.js';
import { defaultStateDir } from '../session/state-dir.js';
import type { AgentCommand } from './agent-command-line.js';

/**
 * The session store a program's command line asks for: `--state-dir`, else the default
 * state folder of `env`; none with `--no-history` (conversations stay in memory).
 */
export function sessionStoreFor(
  command: Extract<AgentCommand, { kind: 'run' }>,
  env: Readonly<Record<string, string | undefined>> = process.env,
): SessionStore | undefined {
  if (!command.history) return undefined;
  return openSessionStore({
    dir: command.stateDir === undefined ? defaultStateDir(env) : resolve(command.stateDir),
  });
}
