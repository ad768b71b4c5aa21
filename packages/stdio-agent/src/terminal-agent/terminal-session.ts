import type { SessionStore, StoredSession } from 'dsh-agent';
import { isSessionError } from 'dsh-agent';
import type { AgentRunCommand } from 'dsh-agent/command-line';
import { neutralizeText } from '../text/neutralize-text.js';
import { sessionListText } from './session-list-text.js';

/** What the terminal program does about saved conversations before it starts. */
export type SessionChoice =
  /** Run with this session: a new one, or one resumed. */
  | { readonly kind: 'run'; readonly session: StoredSession | undefined }
  /** Stop at once with this status (the list was printed, or something was wrong). */
  | { readonly kind: 'exit'; readonly code: number };

/** Where the program reports, and in which folder it runs. */
export interface SessionChoiceContext {
  /** Writes one line for the person (stderr); must not throw. */
  say(line: string): void;
  /** Where `--sessions` prints its list. */
  readonly stdout: NodeJS.WritableStream;
  /** The folder the program runs in: `--continue` and `--sessions` look at its sessions. */
  readonly cwd: string;
  /** Follows a usage error's message, such as `(try dsh-stdio-agent --help)`. */
  readonly usageHint: string;
}

/**
 * Reads the terminal program's session flags: `--sessions` prints the saved conversations of
 * the folder; `--continue` resumes the newest of them, `--resume ID` a given one; otherwise a
 * new conversation starts (saved unless `store` is undefined, as with `--no-history`).
 * Refuses them with `--no-history` or together (status 2); a conversation that cannot be
 * resumed, or saved conversations that cannot be read, is one line and status 1.
 */
export async function chooseSession(
  command: AgentRunCommand,
  store: SessionStore | undefined,
  context: SessionChoiceContext,
): Promise<SessionChoice> {
  const { say } = context;
  const resume = command.values.get('resume');
  const chosen = [
    command.flags.has('sessions') && '--sessions',
    command.flags.has('continue') && '--continue',
    resume !== undefined && '--resume',
  ].filter((flag): flag is string => flag !== false);
  const usage = (message: string): SessionChoice => {
    say(`${message} ${context.usageHint}`);
    return { kind: 'exit', code: 2 };
  };
  if (chosen.length > 1) return usage(`${chosen.join(' and ')} cannot be used together`);
  if (chosen.length === 1 && store === undefined) {
    return usage(`${chosen[0]} needs the saved conversations: leave out --no-history`);
  }
  if (store === undefined) return { kind: 'run', session: undefined };
  try {
    return await chooseSaved(command, store, context);
  } catch (error) {
    if (!isSessionError(error)) throw error;
    const { code, message } = error;
    say(
      code === 'SESSION_NOT_FOUND'
        ? `${message} The saved conversations of this folder: --sessions.`
        : message,
    );
    return { kind: 'exit', code: 1 };
  }
}

async function chooseSaved(
  command: AgentRunCommand,
  store: SessionStore,
  { say, cwd, stdout }: SessionChoiceContext,
): Promise<SessionChoice> {
  // A file left out of a list is said, not hidden: it was not made by dsh.
  const list = () => store.list({ cwd, onSkipped: say });
  if (command.flags.has('sessions')) {
    stdout.write(sessionListText(await list(), cwd));
    return { kind: 'exit', code: 0 };
  }
  let id = command.values.get('resume');
  if (command.flags.has('continue')) {
    const [newest] = await list();
    if (newest === undefined) {
      say(
        `there is no saved conversation in ${neutralizeText(cwd)} to continue: start one without --continue`,
      );
      return { kind: 'exit', code: 1 };
    }
    id = newest.id;
  }
  if (id === undefined) return { kind: 'run', session: store.create({ cwd }) };
  const session = await store.open(id);
  for (const warning of session.warnings) say(warning);
  return { kind: 'run', session };
}
