import { Console } from 'node:console';
import { inspect } from 'node:util';

/** Options of `routeConsole`. */
export interface RouteConsoleOptions {
  /** The console to change (default: the global one). */
  readonly target?: Console;
}

/**
 * Sends everything the console prints (`console.log` included) to `stream`, each string
 * argument and each error (its stack holds its message) shown through `inert`, such as
 * `(text) => inertText(text, 'terminal-paragraphs')`.
 * What a dependency logs about what a server or a client sent (the MCP SDK names a tool and its
 * bad `x-mcp-header` when it drops one; the ACP SDK logs an unknown response id) can then
 * neither put escape sequences on the person's terminal nor forge log lines. Other values are
 * shown by `util.inspect`, which escapes the strings inside them. Returns a function that puts
 * the console back.
 */
export function routeConsole(
  stream: NodeJS.WritableStream,
  inert: (text: string) => string,
  options: RouteConsoleOptions = {},
): () => void {
  const replacement = new Console({ stdout: stream, stderr: stream });
  const console = (options.target ?? globalThis.console) as unknown as Record<string, unknown>;
  const shown = (arg: unknown): unknown =>
    typeof arg === 'string' ? inert(arg) : arg instanceof Error ? inert(inspect(arg)) : arg;
  const saved = new Map<string, unknown>();
  for (const [key, value] of Object.entries(replacement)) {
    if (typeof value !== 'function') continue;
    saved.set(key, console[key]);
    console[key] = (...args: unknown[]) => value.apply(replacement, args.map(shown));
  }
  return () => {
    for (const [key, value] of saved) console[key] = value;
  };
}
