import { spawn } from 'node:child_process';
import type { TerminalInput, TerminalOutput } from '../../question-ui/terminal/terminal-streams.js';
import {
  FOCUS_IN,
  FOCUS_OFF,
  FOCUS_ON,
  FOCUS_OUT,
  notificationKind,
  notificationSequence,
  POP_TITLE,
  pushTitle,
} from './notification-sequence.js';

/** `--notify`: notifications chosen by terminal, a bell only, or none. */
export type NotifyMode = 'auto' | 'bell' | 'off';
export const NOTIFY_MODES: readonly NotifyMode[] = ['auto', 'bell', 'off'];

/** What waits for the person. */
export interface WaitingItem {
  readonly kind: 'question' | 'approval';
  /** The question, or the approval's title (the command, the file). */
  readonly text: string;
}

/** The timers the notifier uses (tests move them by hand). */
export interface NotifierClock {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Options of `createWaitingNotifier`. */
export interface WaitingNotifierOptions {
  readonly input: TerminalInput;
  readonly output: TerminalOutput;
  readonly env: NodeJS.ProcessEnv;
  readonly mode: NotifyMode;
  /** `--notify-command`: run with a JSON description on its stdin when something waits. */
  readonly command?: string;
  /** Reports a failure of the command, once. */
  say(line: string): void;
  /** The folder the agent works in and the session's id, for the command's description. */
  readonly cwd: string;
  sessionId(): string | undefined;
  /** How long to wait before notifying a terminal that never reported its focus (default 5 s). */
  readonly unfocusedDelayMs?: number;
  /** The shortest time between two notifications (default 30 s). */
  readonly cooldownMs?: number;
  /** How long the command may run (default 10 s). */
  readonly commandTimeoutMs?: number;
  readonly clock?: NotifierClock;
  /** The time now, in milliseconds (default `Date.now`). */
  now?(): number;
}

/** Tells the person that a question or an approval waits. */
export interface WaitingNotifier {
  /** Something waits from now: marks the title, and notifies when the terminal is not in front. Returns the end. */
  waiting(item: WaitingItem): () => void;
  /** Gives the terminal its title and focus mode back, synchronously (at exit too). Idempotent. */
  close(): void;
}

const TITLES: Record<WaitingItem['kind'], string> = {
  question: 'A question waits for you',
  approval: 'An approval waits for you',
};

/**
 * The terminal agent's notifier: while something waits, the title says so (saved and given
 * back after); a terminal that reports focus is notified only while it is not in front; one
 * that never reported is notified after a few seconds. One notification per waiting item, with
 * a cooldown between two. `--notify-command` is run without ever delaying the question.
 */
export function createWaitingNotifier(options: WaitingNotifierOptions): WaitingNotifier {
  const { input, output, env, mode } = options;
  const clock: NotifierClock = options.clock ?? {
    setTimeout: (callback, ms) => {
      const timer = setTimeout(callback, ms);
      timer.unref?.();
      return timer;
    },
    clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  };
  const now = options.now ?? Date.now;
  const delay = Math.min(options.unfocusedDelayMs ?? 5_000, 10_000);
  const cooldown = options.cooldownMs ?? 30_000;
  const kind = mode === 'bell' ? 'bell' : notificationKind(env);
  const tmux = (env.TMUX ?? '') !== '';
  /** `true` or `false` once the terminal reported its focus; `undefined` before. */
  let focused: boolean | undefined;
  let lastNotice = Number.NEGATIVE_INFINITY;
  let titled = false;
  let commandFailed = false;
  let current: { notified: boolean } | undefined;

  function write(text: string): void {
    try {
      output.write(text);
    } catch {
      // The terminal is gone; the question goes on regardless.
    }
  }

  function runCommand(item: WaitingItem): void {
    const { command } = options;
    if (command === undefined) return;
    const fail = (why: string): void => {
      if (commandFailed) return;
      commandFailed = true;
      options.say(`--notify-command failed (${why}); it is not reported again.`);
    };
    try {
      const child = spawn('/bin/sh', ['-c', command], {
        cwd: options.cwd,
        stdio: ['pipe', 'ignore', 'ignore'],
        detached: false,
      });
      const timer = clock.setTimeout(() => {
        child.kill('SIGKILL');
        fail(`it ran longer than ${Math.round((options.commandTimeoutMs ?? 10_000) / 1000)} s`);
      }, options.commandTimeoutMs ?? 10_000);
      child.unref();
      child.on('error', (error) => {
        clock.clearTimeout(timer);
        fail((error as { code?: string }).code ?? 'it could not start');
      });
      child.on('exit', (code, signal) => {
        clock.clearTimeout(timer);
        if (code !== 0 && signal !== 'SIGKILL') fail(signal === null ? `exit ${code}` : signal);
      });
      child.stdin?.on('error', () => {});
      child.stdin?.end(
        `${JSON.stringify({
          kind: item.kind,
          title: TITLES[item.kind],
          text: item.text,
          sessionId: options.sessionId() ?? null,
          cwd: options.cwd,
        })}\n`,
      );
    } catch (error) {
      fail((error as { code?: string }).code ?? 'it could not start');
    }
  }

  function notify(item: WaitingItem, state: { notified: boolean }): void {
    if (state.notified || now() - lastNotice < cooldown) return;
    state.notified = true;
    lastNotice = now();
    if (mode !== 'off') write(notificationSequence(kind, TITLES[item.kind], item.text, { tmux }));
    runCommand(item);
  }

  function onData(chunk: Buffer | string): void {
    const text = chunk.toString();
    const lastIn = text.lastIndexOf(FOCUS_IN);
    const lastOut = text.lastIndexOf(FOCUS_OUT);
    if (lastIn === -1 && lastOut === -1) return;
    focused = lastIn > lastOut;
    if (focused === false && current !== undefined && pending !== undefined) {
      notify(pending.item, current);
    }
  }

  let pending: { item: WaitingItem } | undefined;

  return {
    waiting(item) {
      if (mode === 'off' && options.command === undefined) return () => {};
      const state = { notified: false };
      current = state;
      pending = { item };
      if (mode !== 'off') {
        write(`${titled ? '' : pushTitle(`◉ dsh: ${TITLES[item.kind].toLowerCase()}`)}${FOCUS_ON}`);
        titled = true;
      }
      input.on('data', onData);
      if (focused === false) notify(item, state);
      const timer = clock.setTimeout(() => {
        // A terminal that said it is in front is not disturbed.
        if (focused !== true) notify(item, state);
      }, delay);
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        clock.clearTimeout(timer);
        input.removeListener('data', onData);
        if (current === state) {
          current = undefined;
          pending = undefined;
        }
        if (mode !== 'off' && titled) {
          write(FOCUS_OFF + POP_TITLE);
          titled = false;
        }
      };
    },
    close() {
      if (!titled) return;
      titled = false;
      write(FOCUS_OFF + POP_TITLE);
    },
  };
}
