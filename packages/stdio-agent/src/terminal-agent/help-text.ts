import { AGENT_FLAGS_HELP, type ProgramCommand, programCommand } from 'dsh-agent/command-line';

/** The text of `dsh-stdio-agent --help`, naming the command as the person started it. */
export function helpText(command: ProgramCommand = programCommand('dsh-stdio-agent', {})): string {
  return `Usage: ${command.withFlags('[options]')}

A chat agent in the terminal: type a message, and the agent answers, asking you
questions as it works. With no API key it runs a built-in offline demo.

${AGENT_FLAGS_HELP}

Workspace:
  --workspace DIR    the folder the agent reads, edits and runs commands in
                     (default: the folder it starts in). "pnpm start" in a clone
                     of dsh starts in the clone: name your project's folder here.
                     --continue, --sessions and --permissions mean this folder

Conversations (saved in the state folder, one per session):
  --continue         resume the newest conversation of this folder
  --resume ID        resume the conversation with this id
  --sessions         list the saved conversations of this folder (id, when, title)
  A resumed conversation shows its last turns, your answers included; the model
  receives all of it.

Display:
  --show-thinking    print the model's reasoning, dimmed, before its answer
                     (otherwise a terminal shows "Thinking..." while it reasons)
  --no-color         no colours (NO_COLOR and FORCE_COLOR are honoured too)
  --plain            plain mode, for screen readers and terminals that cannot
                     redraw (TERM=dumb too): questions as a numbered list and a
                     "Choose 1-N" prompt, no menus, cursor movement, styling or
                     status line

MCP servers:
  --mcp-config FILE  connect the servers of FILE ("mcpServers", as Claude, Cursor
                     and Gemini write it: stdio "command", or "url" for
                     Streamable HTTP); their tools are named mcp__SERVER__TOOL
                     and ask your approval, their questions are asked here
  --project-mcp SHA256
                     also start the servers of the folder's .mcp.json (as Claude
                     Code writes it), trusting the file whose sha256 is SHA256
                     (as the line about the file or sha256sum prints it; its
                     first 32 digits at least): later starts run it without the
                     flag until its content changes. Untrusted, changed, or not
                     the file you named, it is never run: a line says so
  --mcp-trust-read-only NAMES
                     the MCP servers (comma-separated) whose tools that say they
                     only read (readOnlyHint) run without asking; a deny rule
                     still applies. Other servers' hints never skip an approval

Telling you that something waits (a terminal only; never in plain mode or a pipe):
  --notify MODE      auto (default): the title says a question or an approval
                     waits, and a terminal that is not in front gets one
                     notification (OSC 9, OSC 777 or kitty's, else a bell);
                     bell: a bell only; off: nothing. DSH_NOTIFY sets it too
  --notify-command CMD
                     run CMD (with sh) when something waits, a JSON description
                     on its stdin (kind, title, text, sessionId, cwd): wire a
                     desktop notifier or a phone. It never delays the question

  -h, --help         show this help
  -V, --version      print the version

Keys: Enter sends the message. Ctrl+C cancels the running turn (the conversation
goes on), clears a line being typed, and quits at an empty prompt, as does Ctrl+D.
In a question: arrows or numbers choose, typing filters the list, Enter
confirms, Esc clears the filter or declines.

Piped input is read a line at a time, prompts and answers in order:
  printf 'hello\\n1\\nmy-app\\n' | ${command.name}

Exit status: 0 at the end of input or when you quit, 1 on a fatal error, 2 on a
usage error, 130 when Ctrl+C is pressed again while a turn is being cancelled.
When input or output is not a terminal, 1 also when a turn failed (ended with an
error, such as a model error); a question left unanswered at the end of input
does not fail its turn.
`;
}
