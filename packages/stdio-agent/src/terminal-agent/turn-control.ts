/** The control of one running turn, as Ctrl+C sees it. */
export interface TurnControl {
  readonly controller: AbortController;
  /** Resolves when the person insists on quitting while the turn is being cancelled. */
  readonly forced: Promise<void>;
  /** Ctrl+C: cancels the turn; pressed again while it is being cancelled, quits. */
  interrupt(): void;
  /** Cancels the turn (once). */
  cancel(): void;
}

/** A fresh turn control: its signal cancels the turn, and `forced` says to stop waiting for it. */
export function createTurnControl(): TurnControl {
  const controller = new AbortController();
  let force!: () => void;
  const forced = new Promise<void>((resolve) => {
    force = resolve;
  });
  return {
    controller,
    forced,
    interrupt() {
      if (controller.signal.aborted) force();
      else controller.abort();
    },
    cancel() {
      if (!controller.signal.aborted) controller.abort();
    },
  };
}
