import { AGENT_FLAGS_HELP } from 'dsh-agent/command-line';

/** The text of `dsh-acp --help`. */
export const HELP_TEXT = `Usage: dsh-acp [options]

Serves the dsh agent to an ACP editor (Zed and others): newline-delimited JSON-RPC on
stdin and stdout, logs on stderr. Start it from the editor's agent settings. The flags
and the model are as in dsh-stdio-agent; the model's reasoning goes to the editor as
thoughts.

${AGENT_FLAGS_HELP}

  --questions-as-permissions
                     for an editor without forms, ask questions with options as
                     permission requests (only for an editor that shows those to a
                     person: one that answers them itself, such as acpx --approve-all,
                     would send the model an answer nobody gave)
  --mcp-trust-read-only NAMES
                     the editor's MCP servers (comma-separated names) whose tools that
                     say they only read (readOnlyHint) run without asking; a deny
                     rule still applies. Other servers' hints never skip an approval
  -h, --help         show this help
  -V, --version      print the version

Exit status: 0 when the editor disconnects, 1 on a fatal error, 2 on a usage error.
`;
