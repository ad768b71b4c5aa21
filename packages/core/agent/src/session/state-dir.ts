import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * Where the programs keep their state when `--state-dir` is not given: `$XDG_STATE_HOME/dsh`,
 * else `~/.local/state/dsh`. A relative `XDG_STATE_HOME` is ignored, as the XDG rules say.
 */
export function defaultStateDir(
  env: Readonly<Record<string, string | undefined>> = process.env,
  home: string = homedir(),
): string {
  const xdg = env.XDG_STATE_HOME;
  if (xdg !== undefined && xdg !== '' && isAbsolute(xdg)) return join(xdg, 'dsh');
  return join(home, '.local', 'state', 'dsh');
}
