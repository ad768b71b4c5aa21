import { describe, expect, it } from 'vitest';
import { FrameWriter } from '../src/frame-writer.js';
import { createFakeTerminal } from './fake-terminal.js';

function setup(columns = 40, rows = 10) {
  const terminal = createFakeTerminal({ columns, rows });
  const writer = new FrameWriter();
  const draw = (lines: string[]) => {
    const text = writer.render(lines);
    if (text !== '') terminal.output.write(text);
    return text;
  };
  return { terminal, writer, draw };
}

describe('FrameWriter', () => {
  it('draws a frame below what is already on screen', async () => {
    const { terminal, draw } = setup();
    terminal.output.write('$ earlier output\r\n');
    draw(['one', 'two', 'three']);
    expect(await terminal.text()).toBe('$ earlier output\none\ntwo\nthree');
  });

  it('rewrites only the lines that changed', async () => {
    const { terminal, draw } = setup();
    draw(['title', 'first', 'second', 'footer']);
    const text = draw(['title', 'FIRST', 'second', 'footer']);
    expect(text).toContain('FIRST');
    expect(text).not.toContain('title');
    expect(text).not.toContain('second');
    expect(await terminal.text()).toBe('title\nFIRST\nsecond\nfooter');
  });

  it('writes nothing when nothing changed', () => {
    const { draw } = setup();
    draw(['a', 'b']);
    expect(draw(['a', 'b'])).toBe('');
  });

  it('grows and shrinks without leaving old lines behind', async () => {
    const { terminal, draw } = setup();
    draw(['a', 'b']);
    draw(['a', 'b', 'c', 'd']);
    expect(await terminal.text()).toBe('a\nb\nc\nd');
    draw(['x']);
    expect(await terminal.text()).toBe('x');
  });

  it('scrolls the screen when a frame grows past the bottom', async () => {
    const { terminal, draw } = setup(40, 5);
    terminal.output.write('1\r\n2\r\n3\r\n');
    draw(['a', 'b']);
    draw(['a', 'b', 'c', 'd']);
    expect(await terminal.screen()).toEqual(['3', 'a', 'b', 'c', 'd']);
  });

  it('finds its frame again after the terminal reflowed it to fewer columns', async () => {
    const { terminal, writer, draw } = setup(40, 12);
    terminal.output.write('kept line\r\n');
    draw([
      'a line of thirty-five characters...',
      'another line of thirty-five chars..',
      'short',
      'last line that is thirty-two col',
    ]);
    await terminal.flush();
    terminal.terminal.resize(20, 12);
    writer.invalidate(20);
    draw(['new frame', 'in twenty']);
    expect(await terminal.text()).toBe('kept line\nnew frame\nin twenty');
  });

  it('clears the frame and leaves the cursor where it started', async () => {
    const { terminal, writer, draw } = setup();
    terminal.output.write('before\r\n');
    draw(['a', 'b', 'c']);
    terminal.output.write(`${writer.clear()}summary\r\n`);
    expect(await terminal.text()).toBe('before\nsummary');
    expect(terminal.cursor()).toEqual({ x: 0, y: 2 });
  });
});
