import type { TerminalOutput } from '../question-ui/terminal/terminal-streams.js';

/**
 * Writes to a stream, with `\r\n` line ends on a terminal, as readline does: a terminal whose
 * output processing is off would move down a row without going back to its start.
 */
export function terminalWriter(stream: TerminalOutput): (text: string) => void {
  const terminal = stream.isTTY === true;
  return (text) => {
    if (text !== '') stream.write(terminal ? text.replace(/\n/g, '\r\n') : text);
  };
}
