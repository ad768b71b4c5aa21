import { describe, expect, it } from 'vitest';
import { internalErrorLine } from '../../src/command-line.js';

describe('internalErrorLine', () => {
  it("says an unexpected failure on one inert line: a server's text in it neither acts nor forges a line", () => {
    const error = new Error(
      'MCP error -32603: \u001b]0;owned\u0007\u009b2J\ndsh-stdio-agent: forged',
    );
    const line = internalErrorLine(error);
    expect(line).toMatch(
      /^internal error: Error: MCP error -32603: \^\[\]0;owned\^G<U\+009B>2J↵dsh-stdio-agent: forged↵ {4}at /,
    );
    for (const live of ['\u001b', '\u0007', '\u009b', '\n', '\r']) expect(line).not.toContain(live);
    expect(internalErrorLine('\u001b[2J')).toBe('internal error: ^[[2J');
  });
});
