/** One step of a person at the keyboard: the keys (one chunk, or chunks in turn), then what the screen shows. */
export type KeyStep = readonly [keys: string | readonly string[], shows: string | RegExp];

/** A screen that takes keys: a real pseudo-terminal (`write`) or a fake terminal (`press`). */
export type KeyedScreen = { waitFor(text: string | RegExp): Promise<string> } & (
  | { write(data: string): void }
  | { press(...keys: string[]): void }
);

/**
 * Plays a person's steps in order: each sends its keys, then waits until the screen shows what
 * the step names. Resolves with the screen after the last step.
 */
export async function playKeySteps(
  screen: KeyedScreen,
  steps: readonly KeyStep[],
): Promise<string> {
  let shown = '';
  for (const [keys, shows] of steps) {
    const chunks = typeof keys === 'string' ? [keys] : keys;
    if ('press' in screen) screen.press(...chunks);
    else for (const chunk of chunks) screen.write(chunk);
    shown = await screen.waitFor(shows);
  }
  return shown;
}

/** A line as a person types it: each character a key of its own, then Enter. */
export function typedLine(text: string): string[] {
  return [...text, '\r'];
}
