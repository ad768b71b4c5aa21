import { REQUEST_LIMITS } from 'dsh-user-interaction';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReadlineProvider } from '../../src/index.js';
import { type FakeTerminal, KEYS } from '../../src/testing.js';
import { providerOnTerminal } from '../support/question-provider.js';

let terminal: FakeTerminal;
let provider: ReadlineProvider;

function open(): void {
  ({ terminal, provider } = providerOnTerminal({ columns: 80, rows: 24, escapeCodeTimeout: 10 }));
}

afterEach(() => {
  provider?.dispose();
  terminal?.dispose();
});

/** A bracketed paste as a terminal sends it: in reads of at most 4,096 bytes. */
function pasteChunks(text: string): string[] {
  const chunks: string[] = [];
  let chunk = '';
  let bytes = 0;
  for (const character of `${KEYS.pasteStart}${text}${KEYS.pasteEnd}`) {
    const size = Buffer.byteLength(character);
    if (bytes + size > 4_096) {
      chunks.push(chunk);
      chunk = '';
      bytes = 0;
    }
    chunk += character;
    bytes += size;
  }
  return [...chunks, chunk];
}

async function errorOf(promise: Promise<unknown>): Promise<{ code?: string }> {
  return promise.then(
    () => {
      throw new Error('Expected the question to fail.');
    },
    (error: { code?: string }) => error,
  );
}

/** The editor's row: the one that starts with the pointer. */
async function editorRow(): Promise<string> {
  const row = (await terminal.screen()).find((line) => line.startsWith('❯ '));
  if (row === undefined) throw new Error(`No editor row:\n${await terminal.text()}`);
  // The cursor's reverse-video cell past the end is a space the emulator keeps.
  return row.trimEnd();
}

// Before each pasted character redrew the whole draft, these pastes took 10 s and more than a
// minute. The tests count the draws (one per chunk the terminal delivers); how long a paste
// takes is measured by `pnpm bench` (`bench/stdio-paste.bench.ts`), never asserted here.

describe('a long pasted answer', () => {
  it('takes 16,000 characters at once, drawing once per chunk, and submits them whole', async () => {
    open();
    const answer = provider.ask({ question: 'Paste the log:' });
    answer.catch(() => {});
    await terminal.waitFor('Paste the log:');
    const text = `${'The quick brown fox jumps over the lazy dog. '.repeat(355)}Ok. The lazy dog. THE END`;
    expect(text).toHaveLength(16_000);
    const chunks = pasteChunks(text);
    const writes = terminal.writes;
    terminal.press(...chunks);
    expect(terminal.writes - writes).toBeLessThanOrEqual(chunks.length);
    expect(await editorRow()).toMatch(/^❯ ….* dog\. THE END$/);

    // Moving and typing in the middle of the draft shows the text around the cursor.
    terminal.press(...Array<string>(7).fill(KEYS.left), '>');
    expect(await editorRow()).toMatch(/ dog\. >T…$/);
    terminal.press(KEYS.home, '<');
    expect(await editorRow()).toMatch(/^❯ <The quick brown fox .*…$/);
    terminal.press(KEYS.enter);
    expect((await answer).answer).toBe(`<${text.slice(0, -7)}>THE END`.trim());
  });

  it('takes 4,000 CJK characters at once, and Ctrl+C right after cancels at once', async () => {
    open();
    const answer = provider.ask({ question: 'Paste the text:' });
    await terminal.waitFor('Paste the text:');
    const text = '日本語の文章を貼り付けます。'.repeat(300).slice(0, 4_000);
    const chunks = pasteChunks(text);
    const writes = terminal.writes;
    terminal.press(...chunks, KEYS.ctrlC);
    expect((await errorOf(answer)).code).toBe('ASK_CANCELLED');
    // Each chunk drew once, and the cancelled question collapsed once.
    expect(terminal.writes - writes).toBeLessThanOrEqual(chunks.length + 1);
    expect(await terminal.text()).toBe('✖ Paste the text: · cancelled');
  });
});

describe('the longest answer', () => {
  const limit = REQUEST_LIMITS.answerLength;

  it('cuts a paste that would pass it, says so, and refuses more typing', async () => {
    open();
    const answer = provider.ask({ question: 'Paste the dump:' });
    answer.catch(() => {});
    await terminal.waitFor('Paste the dump:');
    terminal.press('ab');
    // One character too many, and the last one two code units: the cut never splits it.
    terminal.press(...pasteChunks(`${'x'.repeat(limit - 3)}😀`));
    const screen = await terminal.text();
    expect(screen).toContain('Paste cut: an answer holds at most 100,000 characters.');
    expect(await editorRow()).toMatch(/xxx$/);
    // The draft is one short of the limit: one more character fits, the next does not.
    terminal.press('y');
    expect(await terminal.text()).not.toContain('at most 100,000');
    terminal.press('w');
    expect(await terminal.text()).toContain('An answer holds at most 100,000 characters.');
    expect(await editorRow()).toMatch(/xxy$/);
    terminal.press(KEYS.backspace, 'z');
    expect(await terminal.text()).not.toContain('at most 100,000');
    terminal.press(KEYS.enter);
    const { answer: text } = await answer;
    expect(text).toHaveLength(limit);
    expect(text).toBe(`ab${'x'.repeat(limit - 3)}z`);
  });
});
