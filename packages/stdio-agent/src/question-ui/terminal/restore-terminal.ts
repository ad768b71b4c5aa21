import { PASTE_OFF, SHOW_CURSOR } from './terminal-modes.js';
import type { TerminalInput, TerminalOutput } from './terminal-streams.js';

/**
 * Gives a terminal back synchronously, for the last moments of a process (an `exit`
 * listener, a fatal signal): raw mode off, bracketed paste off, the cursor shown. Never
 * throws: a terminal that is already gone cannot be restored. Without `sequences` (a plain
 * terminal, never drawn on), nothing is written.
 */
export function restoreTerminal(
  input: TerminalInput,
  output: TerminalOutput,
  sequences = true,
): void {
  try {
    if (input.isTTY === true && input.isRaw === true) input.setRawMode?.(false);
  } catch {
    // The terminal is gone.
  }
  try {
    if (sequences && output.isTTY === true) output.write(PASTE_OFF + SHOW_CURSOR);
  } catch {
    // The terminal is gone.
  }
}
