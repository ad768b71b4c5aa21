import type { ChatAgent } from 'dsh-agent';
import { holdTurnKeys } from './hold-turn-keys.js';
import type { InterruptDispatch } from './interrupt-dispatch.js';
import { createTurnRenderer, type TurnRendererOptions } from './render-turn-events.js';
import type { TerminalIo } from './terminal-io.js';

/** What every turn of the terminal agent shares. */
export interface TerminalTurnContext {
  readonly agent: ChatAgent;
  readonly io: TerminalIo;
  readonly interrupts: InterruptDispatch;
  /** How each turn is drawn: everything but where it is written. */
  readonly renderer: Omit<TurnRendererOptions, 'write'>;
  /** The tool calls of this turn whose question the question UI took; cleared at each turn. */
  readonly taken: Set<string>;
  /** A turn ended with an error: a script reading a pipe is told by the exit status. */
  onFailed(): void;
}

/**
 * Runs one turn on the person's prompt (`undefined`: goes on with the turn a stop cut short),
 * drawing its events; Ctrl+C cancels it. `forced`: Ctrl+C came again while it was being
 * cancelled, and nobody waits for it any more.
 */
export async function runTerminalTurn(
  context: TerminalTurnContext,
  prompt: string | undefined,
): Promise<'ended' | 'forced'> {
  const { agent, io, interrupts } = context;
  const controller = new AbortController();
  let forceQuit!: () => void;
  const forcedQuit = new Promise<void>((resolve) => {
    forceQuit = resolve;
  });
  interrupts.turn = { controller, forceQuit };
  interrupts.dispatch({ type: 'turn-start' });
  context.taken.clear();
  let forced = false;
  const renderer = createTurnRenderer({
    ...context.renderer,
    write: (text) => {
      if (!forced) io.write(text);
    },
  });
  const release = io.terminal ? holdTurnKeys(io.input, io.output, interrupts.interrupt) : () => {};
  const played = (async () => {
    const turn =
      prompt === undefined
        ? agent.resume({ signal: controller.signal })
        : agent.run(prompt, { signal: controller.signal });
    for await (const event of turn) {
      if (event.type === 'turn-end' && event.reason === 'error') context.onFailed();
      renderer.render(event);
    }
  })();
  try {
    const outcome = await Promise.race([
      played.then(() => 'ended' as const),
      forcedQuit.then(() => 'forced' as const),
    ]);
    if (outcome === 'forced') {
      forced = true;
      // The turn is cancelled already and ends on its own; nobody waits for it now.
      played.catch(() => {});
      io.write(`\n${io.style.warning('Interrupted.')}\n`);
    }
    return outcome;
  } finally {
    renderer.close();
    release();
    interrupts.turn = undefined;
    const cancelled = controller.signal.aborted;
    interrupts.dispatch({ type: 'turn-end', cancelled, confirm: io.onTerminal });
  }
}
