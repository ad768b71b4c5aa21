import { Console } from 'node:console';
import { Writable } from 'node:stream';

/** Options of `routeConsole`. */
export interface RouteConsoleOptions {
  /** The console to change (default: the global one). */
  readonly target?: Console;
}

/**
 * Sends everything the console prints (`console.log` included) to `stream`, each call's whole
 * text, once the console has formatted it, shown through `inert`, such as
 * `(text) => inertText(text, 'terminal-line')`: whatever a call prints (a string, an
 * error's stack, a symbol's or a class's name, a table's cells, a `%s` of an object's
 * `toString`) reaches the stream inert. A line break that ends a call is kept after `inert`.
 * What a dependency logs about what a server or a client sent (the MCP SDK names a tool and its
 * bad `x-mcp-header` when it drops one; the ACP SDK logs an unknown response id) can then put
 * no escape sequence on the person's terminal, and at a one-line level (`terminal-line`,
 * `log-line`) forge no line either. Returns a function that puts the console back.
 */
export function routeConsole(
  stream: NodeJS.WritableStream,
  inert: (text: string) => string,
  options: RouteConsoleOptions = {},
): () => void {
  const sink = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      const ended = text.endsWith('\n');
      stream.write(`${inert(ended ? text.slice(0, -1) : text)}${ended ? '\n' : ''}`);
      done();
    },
  });
  const replacement = new Console({ stdout: sink, stderr: sink });
  const console = (options.target ?? globalThis.console) as unknown as Record<string, unknown>;
  const saved = new Map<string, unknown>();
  for (const [key, value] of Object.entries(replacement)) {
    if (typeof value !== 'function') continue;
    saved.set(key, console[key]);
    console[key] = (...args: unknown[]) => value.apply(replacement, args);
  }
  return () => {
    for (const [key, value] of saved) console[key] = value;
  };
}
