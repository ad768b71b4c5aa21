// This file must not load the width tables before its tests: it checks what happens until
// they are loaded (a module registry of its own keeps other files from loading them first).
import { afterEach, describe, expect, it } from 'vitest';
import { createReadlineProvider, type ReadlineProvider } from '../../src/index.js';
import { createFakeTerminal, type FakeTerminal, TEST_ENV } from '../../src/testing.js';
import { textWidth, textWidthExact } from '../../src/text/text-width.js';

let terminal: FakeTerminal | undefined;
let provider: ReadlineProvider | undefined;

afterEach(() => {
  provider?.dispose();
  terminal?.dispose();
});

describe('before the width tables are loaded', () => {
  it('estimates widths: wide scripts take two columns, marks none', () => {
    expect(textWidthExact()).toBe(false);
    expect(textWidth('数据库')).toBe(6);
    expect(textWidth('e\u0301')).toBe(1);
    expect(textWidth('plain text')).toBe(10);
  });

  it('lets the first menu wait for them, so that it is measured exactly from the start', async () => {
    terminal = createFakeTerminal({ columns: 20, rows: 12 });
    provider = createReadlineProvider({
      input: terminal.input,
      output: terminal.output,
      env: TEST_ENV,
    });
    // Seven "woman technologist" emoji take 14 columns, but 28 by the estimate.
    const label = '👩‍💻'.repeat(7);
    void provider
      .ask({ question: 'Who?', options: [{ label }, { label: 'B' }], allowCustom: false })
      .catch(() => {});
    expect(textWidthExact()).toBe(false);
    expect(terminal.writes).toBe(0);
    await terminal.waitFor(`❯ 1. ${label}`);
    expect(textWidthExact()).toBe(true);
    expect(terminal.written).not.toContain('…');
  });
});
