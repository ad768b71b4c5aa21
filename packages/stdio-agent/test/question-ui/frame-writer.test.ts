import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameWriter } from '../../src/question-ui/terminal/frame-writer.js';
import { createFakeTerminal } from '../../src/testing.js';

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

  it('moves a scrolled block with the terminal instead of rewriting it', async () => {
    const { terminal, draw } = setup(40, 20);
    terminal.output.write('above\r\n');
    const rows = (first: number) =>
      Array.from({ length: 10 }, (_, index) => `row ${first + index}`);
    draw(['title', ...rows(1), 'footer']);
    const down = draw(['title', ...rows(2), 'footer']);
    expect(down).toContain('\u001b[1M');
    expect(down).toContain('row 11');
    expect(down).not.toContain('row 5');
    expect(await terminal.text()).toBe(['above', 'title', ...rows(2), 'footer'].join('\n'));
    const up = draw(['title', ...rows(0), 'footer']);
    expect(up).toContain('\u001b[2L');
    expect(up).not.toContain('row 5');
    expect(await terminal.text()).toBe(['above', 'title', ...rows(0), 'footer'].join('\n'));
  });

  it('always leaves exactly the last frame on screen, whatever changed between frames', async () => {
    const line = fc.constantFrom('', 'alpha', 'beta', 'gamma', 'delta', 'a longer line of text');
    const step = fc.oneof(
      fc.record({ kind: fc.constant('shift' as const), by: fc.integer({ min: -3, max: 3 }) }),
      fc.record({ kind: fc.constant('edit' as const), at: fc.nat(), text: line }),
      fc.record({ kind: fc.constant('resize' as const), length: fc.integer({ min: 1, max: 14 }) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 14 }),
        fc.array(step, { maxLength: 12 }),
        async (first, steps) => {
          const { terminal, draw } = setup(40, 24);
          terminal.output.write('kept\r\n');
          let frame = first.map((text, index) => `${index}:${text}`);
          draw(frame);
          let counter = 100;
          for (const change of steps) {
            if (change.kind === 'shift') {
              // A list window moving: the middle rows shift, fresh rows come in.
              const middle = frame.slice(1, -1);
              const moved =
                change.by >= 0
                  ? [
                      ...middle.slice(change.by),
                      ...Array.from(
                        { length: Math.min(change.by, middle.length) },
                        () => `${counter++}`,
                      ),
                    ]
                  : [
                      ...Array.from(
                        { length: Math.min(-change.by, middle.length) },
                        () => `${counter++}`,
                      ),
                      ...middle.slice(0, change.by),
                    ];
              frame =
                frame.length > 2
                  ? [
                      frame[0] as string,
                      ...moved.slice(0, middle.length),
                      frame[frame.length - 1] as string,
                    ]
                  : frame;
            } else if (change.kind === 'edit') {
              frame = frame.map((text, index) =>
                index === change.at % frame.length ? `${counter++}${change.text}` : text,
              );
            } else {
              frame = Array.from(
                { length: change.length },
                (_, index) => frame[index] ?? `${counter++}`,
              );
            }
            draw(frame);
          }
          expect(await terminal.text()).toBe(['kept', ...frame].join('\n').trimEnd());
          terminal.dispose();
        },
      ),
      { numRuns: 150 },
    );
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
