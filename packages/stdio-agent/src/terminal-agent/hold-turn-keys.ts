import { captureEvent, type EventSource } from '../question-ui/terminal/capture-event.js';
import type { Key } from '../question-ui/terminal/key.js';
import { suspendByKey } from '../question-ui/terminal/suspend.js';

/**
 * While a turn runs, keeps the host's readline Interface from seeing keys and resizes: it
 * would echo what is typed into the middle of the streaming text, take Enter as the next
 * prompt, and redraw its prompt line over the text on a resize. Ctrl+C calls `onInterrupt`,
 * Ctrl+Z suspends the process; other keys are dropped. A question on screen takes the keys for itself, above this.
 * Returns the function that gives the keys back.
 */
export function holdTurnKeys(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  onInterrupt: () => void,
): () => void {
  const releaseKeys = captureEvent(
    input as unknown as EventSource,
    'keypress',
    (_text: string | undefined, key: Key | undefined) => {
      if (key?.ctrl === true && key.name === 'c') onInterrupt();
      // Raw mode turned the terminal's Ctrl+Z into a key: it suspends, as at the prompt.
      else if (key?.ctrl === true && key.name === 'z') suspendByKey();
    },
  );
  const releaseResize = captureEvent(output as unknown as EventSource, 'resize', () => {});
  return () => {
    releaseResize();
    releaseKeys();
  };
}
