import { parseAgentCommandLine, type ThinkingLevel } from 'dsh-agent';

/** What the `dsh-acp` command line asks for. */
export type Command =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | {
      readonly kind: 'serve';
      /** `--model`: the model name on an OpenAI-compatible server. */
      readonly model?: string;
      /** `--base-url`: an OpenAI-compatible server. */
      readonly baseUrl?: string;
      /** `--script`: a JSON script to replay offline. */
      readonly script?: string;
      /** `--timeout`: how long a question waits for an answer, in milliseconds. */
      readonly questionTimeoutMs?: number;
      /** `--thinking`: how much a thinking model reasons. */
      readonly thinking?: ThinkingLevel;
    };

/** The text of `dsh-acp --help`. */
export const HELP_TEXT = `Usage: dsh-acp [options]

Serves the dsh agent to an ACP editor (Zed and others): newline-delimited JSON-RPC on
stdin and stdout, logs on stderr. Start it from the editor's agent settings.

Model (the same rules as dsh-stdio-agent):
  --script FILE      replay a JSON script offline
  --base-url URL     an OpenAI-compatible server (Ollama, vLLM, llama.cpp's server, ...)
  --model NAME       the model on that server, or on DeepSeek (default deepseek-flash;
                     DeepSeek also serves deepseek-v4-pro)
  --thinking LEVEL   off, low, high or max: how much a thinking model reasons first
                     (DeepSeek: thinking on or off and its effort; other servers get
                     reasoning_effort); default: the server's own (DeepSeek: on, high)
  Without --script or --base-url, DEEPSEEK_API_KEY (or DSH_API_KEY) selects DeepSeek;
  with no key, the built-in offline demo runs. The model's reasoning is sent to the
  editor as thoughts.

Questions:
  --timeout TIME     how long a question waits for an answer: a number with ms, s,
                     m or h (90s, 1.5m), or milliseconds (90000); default: no limit

  -h, --help         show this help
  -V, --version      print the version

Exit status: 0 when the editor disconnects, 1 on a fatal error, 2 on a usage error.
`;

/** Reads the command line (without `node` and the script); throws `UsageError`. */
export function parseCommandLine(args: readonly string[]): Command {
  const command = parseAgentCommandLine(args);
  if (command.kind !== 'run') return command;
  const { flags: _flags, kind: _kind, ...options } = command;
  return { kind: 'serve', ...options };
}
