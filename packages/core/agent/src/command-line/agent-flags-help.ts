/**
 * The help of the flags every agent program shares, for the programs' `--help`: the model
 * flags (with the model server's time limit and retries), the question time limit, then where
 * conversations are saved (two spaces of indent, flags in a 19-column field).
 */
export const AGENT_FLAGS_HELP = `Model:
  --script FILE      replay a JSON script offline (format: the dsh-agent README)
  --base-url URL     an OpenAI-compatible server (Ollama, vLLM, llama.cpp's server, ...)
  --model NAME       the model on that server, or on DeepSeek (default deepseek-flash;
                     DeepSeek also serves deepseek-v4-pro)
  --thinking LEVEL   off, low, high or max: how much a thinking model reasons first
                     (DeepSeek: thinking on or off and its effort; other servers get
                     reasoning_effort); default: the server's own (DeepSeek: on, high)
  --request-timeout TIME
                     how long the model server may stay silent (before its first
                     byte, or between two pieces of its answer) before the request
                     is sent again; default 20s. An answer that keeps streaming is
                     never cut
  --retries N        how many times a failed request is sent again, 0 to 10
                     (default 2): a busy or unreachable server, or silence; never a
                     refusal (a wrong key or model). By default an unresponsive
                     server fails the turn after 60 s
  Without --script or --base-url, DEEPSEEK_API_KEY (or DSH_API_KEY) selects DeepSeek;
  with no key, the built-in offline demo runs.

Questions:
  --timeout TIME     how long a question waits for an answer: a number with ms, s,
                     m or h (90s, 5m), or milliseconds (90000); default: no limit

Tools and approvals:
  The agent reads, lists and searches the files of its folder (the workspace)
  without asking; every edit, write and command asks first, unless a rule decides.
  --allow RULE       allow tool calls for this run (repeatable): TOOL, or
                     TOOL:PATTERN, a command prefix in words for run_command
                     (run_command:npm test) or a path glob for the file tools
                     (write_file:docs/**)
  --deny RULE        deny tool calls for this run (repeatable); deny wins
  --permission-mode MODE
                     ask (default); read-only: nothing that changes files or
                     runs commands runs, and nothing is asked; allow-sandboxed:
                     commands that stay in the sandbox run unasked unless a rule
                     denies them (never when the sandbox is not running)
  --permissions      list the rules in force and where they live, then exit

Commands (run_command):
  --sandbox WHEN     auto (default): each command runs in an OS sandbox (bubblewrap)
                     when it can start; on: a command that cannot be sandboxed is
                     refused; off: commands run with your full powers
  --sandbox-hide PATH
                     a file or folder no sandboxed command can read or write
                     (repeatable), besides ~/.ssh, ~/.aws, the state folder...
  --hide-env NAME    a variable never passed to a command (repeatable); the
                     agent's own keys (DEEPSEEK_API_KEY, DSH_API_KEY) never are
  --pass-env NAME    pass that variable to commands all the same (repeatable)

History:
  --state-dir DIR    where conversations are saved, one file each (default:
                     $XDG_STATE_HOME/dsh, else ~/.local/state/dsh)
  --no-history       keep conversations in memory only: nothing is written`;
