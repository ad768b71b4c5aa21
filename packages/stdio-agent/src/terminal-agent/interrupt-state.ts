/**
 * Where Ctrl+C (or SIGINT) lands in the terminal agent: at the prompt, or in a running turn.
 * `confirmQuit`: the turn before was cancelled, so a reflex second Ctrl+C only explains how to
 * quit; `cancelling`: the turn was told to stop and has not ended yet.
 */
export type InterruptState =
  | { readonly at: 'prompt'; readonly confirmQuit: boolean }
  | { readonly at: 'turn'; readonly cancelling: boolean };

/** What happens to the agent, as far as Ctrl+C is concerned. */
export type InterruptEvent =
  /** Ctrl+C, or SIGINT; `lineTyped` when the prompt holds typed text. */
  | { readonly type: 'ctrl-c'; readonly lineTyped: boolean }
  /** The turn must stop: the person dismissed a question, or the output went away. */
  | { readonly type: 'cancel' }
  | { readonly type: 'turn-start' }
  /** The turn ended; `cancelled` when it was told to stop, `confirm` to guard the next Ctrl+C. */
  | { readonly type: 'turn-end'; readonly cancelled: boolean; readonly confirm: boolean }
  /** A line was sent at the prompt. */
  | { readonly type: 'line' };

/** What the agent does about it. */
export type InterruptAction =
  | 'none'
  | 'clear-line'
  | 'explain-quit'
  | 'quit'
  | 'cancel-turn'
  | 'force-quit';

/** The state at start: the prompt. */
export const AT_PROMPT: InterruptState = Object.freeze({ at: 'prompt', confirmQuit: false });

/**
 * The one Ctrl+C state machine of the terminal agent, as a pure reducer: at the prompt Ctrl+C
 * clears a typed line, else quits (right after a cancelled turn it first only says how);
 * in a turn it cancels the turn, and pressed again while the turn is being cancelled it quits
 * at once.
 */
export function interruptStep(
  state: InterruptState,
  event: InterruptEvent,
): { readonly state: InterruptState; readonly action: InterruptAction } {
  switch (event.type) {
    case 'turn-start':
      return { state: { at: 'turn', cancelling: false }, action: 'none' };
    case 'turn-end':
      return {
        state: { at: 'prompt', confirmQuit: event.cancelled && event.confirm },
        action: 'none',
      };
    case 'line':
      return { state: state.at === 'prompt' ? AT_PROMPT : state, action: 'none' };
    case 'cancel':
      if (state.at !== 'turn' || state.cancelling) return { state, action: 'none' };
      return { state: { at: 'turn', cancelling: true }, action: 'cancel-turn' };
    case 'ctrl-c':
      if (state.at === 'turn') {
        return state.cancelling
          ? { state, action: 'force-quit' }
          : { state: { at: 'turn', cancelling: true }, action: 'cancel-turn' };
      }
      if (event.lineTyped) return { state, action: 'clear-line' };
      if (state.confirmQuit) return { state: AT_PROMPT, action: 'explain-quit' };
      return { state, action: 'quit' };
  }
}
