import { restoreTerminal } from '../question-ui/terminal/restore-terminal.js';
import { onSuspend, suspendByKey } from '../question-ui/terminal/suspend.js';
import {
  AT_PROMPT,
  type InterruptEvent,
  type InterruptState,
  interruptStep,
} from './interrupt-state.js';
import type { PromptLine, TerminalIo } from './terminal-io.js';
import type { UndoStack } from './undo-stack.js';

/** Where `SIGINT` arrives when Ctrl+C is a signal rather than a key (the process, in the bin). */
export interface InterruptSource {
  on(event: 'SIGINT', listener: () => void): unknown;
  removeListener(event: 'SIGINT', listener: () => void): unknown;
}

/** What the first Ctrl+C at the prompt right after a cancelled turn says instead of quitting. */
export const QUIT_HINT = 'Press Ctrl+C again, or Ctrl+D, to quit.';

/** The running turn, as Ctrl+C sees it: what cancels it, and what stops waiting for it. */
export interface InterruptibleTurn {
  readonly controller: AbortController;
  forceQuit(): void;
}

/**
 * Runs Ctrl+C's state machine (`interruptStep`) on each event, and does what it says: clears
 * the prompt's line, explains how to quit, quits, cancels the running turn or stops waiting
 * for it.
 */
export class InterruptDispatch {
  /** The running turn; `undefined` at the prompt. */
  turn: InterruptibleTurn | undefined;
  readonly #io: TerminalIo;
  readonly #prompt: PromptLine;
  #state: InterruptState = AT_PROMPT;

  constructor(io: TerminalIo, prompt: PromptLine) {
    this.#io = io;
    this.#prompt = prompt;
  }

  /** Ctrl+C, as a key or as `SIGINT`. */
  readonly interrupt = (): void => {
    this.dispatch({ type: 'ctrl-c', lineTyped: this.#io.terminal && this.#prompt.rl.line !== '' });
  };

  /** Runs Ctrl+C's state machine on an event, and does what it says. */
  dispatch(event: InterruptEvent): void {
    const step = interruptStep(this.#state, event);
    this.#state = step.state;
    const { rl } = this.#prompt;
    switch (step.action) {
      case 'clear-line':
        rl.write(null, { ctrl: true, name: 'e' });
        rl.write(null, { ctrl: true, name: 'u' });
        return;
      case 'explain-quit':
        this.#io.write(`\n${this.#io.style.dim(QUIT_HINT)}\n`);
        rl.prompt();
        return;
      case 'quit':
        // Closing the Interface ends the prompt loop.
        rl.close();
        return;
      case 'cancel-turn':
        this.turn?.controller.abort();
        return;
      case 'force-quit':
        this.turn?.forceQuit();
        return;
      case 'none':
        return;
    }
  }
}

/**
 * Listens for what interrupts the agent: Ctrl+C at the prompt and `SIGINT` from `source` go to
 * `dispatch`; Ctrl+Z and `kill -TSTP` give the shell a cooked terminal, and `fg` gets the prompt
 * back. `undo` stops listening.
 */
export function listenForInterrupts(
  io: TerminalIo,
  prompt: PromptLine,
  dispatch: InterruptDispatch,
  source: InterruptSource | undefined,
  undo: UndoStack,
): void {
  const { input, output } = io;
  const { rl } = prompt;
  if (io.terminal) {
    const leaveSuspend = onSuspend({
      suspend: () => restoreTerminal(input, output),
      resume() {
        if (input.isRaw !== true) input.setRawMode?.(true);
        if (prompt.atPrompt) rl.prompt(true);
      },
    });
    undo.defer(leaveSuspend);
  }
  const { interrupt } = dispatch;
  rl.on('SIGINT', interrupt);
  undo.defer(() => rl.removeListener('SIGINT', interrupt));
  // Readline stops the process itself on Ctrl+Z, with no redraw after a `kill -TSTP`: one way.
  rl.on('SIGTSTP', suspendByKey);
  undo.defer(() => rl.removeListener('SIGTSTP', suspendByKey));
  if (source !== undefined) {
    source.on('SIGINT', interrupt);
    undo.defer(() => source.removeListener('SIGINT', interrupt));
  }
}
