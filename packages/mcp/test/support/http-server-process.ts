import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

// dsh-mcp's loopback Streamable HTTP server (written with the SDK's server package) in a process
// of its own, so that its `crash` tool is a real server going away. The tests of dsh-acp and
// dsh-stdio-agent start it too, as the HTTP server an editor or a configuration names.

const HTTP_SERVER = fileURLToPath(new URL('../fixtures/http-server.mjs', import.meta.url));

const children: ChildProcess[] = [];

/** Starts the loopback HTTP server in a child process: its MCP address, once it listens. */
export async function startHttpServerProcess(): Promise<string> {
  const child = spawn(process.execPath, [HTTP_SERVER], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const lines = createInterface({ input: child.stdout });
  const [url] = (await Promise.race([
    once(lines, 'line'),
    once(child, 'exit').then(([code]) => {
      throw new Error(`the HTTP server exited (${String(code)})`);
    }),
  ])) as [string];
  return url;
}

/** Kills every server `startHttpServerProcess` started that still runs (each file's `afterEach`). */
export function stopHttpServerProcesses(): void {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
}
