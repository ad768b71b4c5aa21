import { parseAgentCommandLine, type ThinkingLevel } from 'dsh-agent';

/** What the `dsh-stdio-agent` command line asks for. */
export type Command =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | {
      readonly kind: 'chat';
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
      /** `--show-thinking`: print the model's reasoning before its answer. */
      readonly showThinking?: true;
      /** `--no-color`: `false`; otherwise colours follow the terminal and the environment. */
      readonly color?: false;
    };

/** Reads the command line (without `node` and the script); throws `UsageError`. */
export function parseCommandLine(args: readonly string[]): Command {
  const command = parseAgentCommandLine(args, { booleanFlags: ['no-color', 'show-thinking'] });
  if (command.kind !== 'run') return command;
  const { flags, kind: _kind, ...options } = command;
  return {
    kind: 'chat',
    ...options,
    ...(flags.has('show-thinking') && { showThinking: true as const }),
    ...(flags.has('no-color') && { color: false as const }),
  };
}
