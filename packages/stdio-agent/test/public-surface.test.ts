import { describe, expect, it } from 'vitest';
import * as root from '../src/index.js';
import * as terminalAgent from '../src/terminal-agent.js';
import * as testing from '../src/testing.js';

// What a harness author can import is a promise we keep: a name added to a list below is a
// decision (its README documents it), not a side effect of exporting a helper for another file.
describe('the public surface', () => {
  it('the root exports what the README documents, and nothing else', () => {
    expect(Object.keys(root).sort()).toEqual([
      'createReadlineProvider',
      'lineReaderFor',
      'neutralizeText',
    ]);
  });

  it('`dsh-stdio-agent/terminal-agent` exports its own part and nothing else', () => {
    expect(Object.keys(terminalAgent).sort()).toEqual([
      'FAILED_TURN_EXIT_CODE',
      'INTERRUPTED_EXIT_CODE',
      'NOTIFY_MODES',
      'runTerminalAgent',
    ]);
  });

  it('`dsh-stdio-agent/testing` exports its own part and nothing else', () => {
    expect(Object.keys(testing).sort()).toEqual([
      'FakeTerminal',
      'KEYS',
      'TEST_ENV',
      'createFakeTerminal',
      'createPipes',
    ]);
  });

  it('the root stays small enough to read in a minute', () => {
    expect(Object.keys(root).length).toBeLessThanOrEqual(8);
  });
});
