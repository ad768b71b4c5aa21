import type { sessionFileLines } from 'dsh-agent/testing';

/** The lines of a session file, as `sessionFileLines` reads them. */
export type SessionLines = ReturnType<typeof sessionFileLines>;

/** The lines of `type` (`posed`, `tool-result`, …) about the tool call `toolCallId`. */
export function linesOf(lines: SessionLines, type: string, toolCallId: string): SessionLines {
  return lines.filter((line) => line.type === type && line.toolCallId === toolCallId);
}
