import { describe, expect, it } from 'vitest';
import { KEYS } from '../../src/testing.js';
import { textWidth } from '../../src/text/text-width.js';
import { openSized as open, provider, terminal } from '../support/menu-terminal.js';

function numbered(count: number) {
  return Array.from({ length: count }, (_, index) => ({ label: `Option ${index + 1}` }));
}

const LONG = {
  header: 'Deployment',
  question:
    'Where should the service be deployed? The staging cluster is cheaper, but production is where the customers are.',
  options: [
    {
      label: 'Staging cluster in the European region',
      description: 'Cheaper, shared with the other teams, and reset every night at two.',
      recommended: true,
    },
    { label: 'Production', description: 'Where the customers are.' },
  ],
  allowCustom: true,
};
/** How `LONG` looks at 40 columns, drawn there first or after a resize. */
const LONG_AT_40 = [
  '? Deployment',
  '  Where should the service be deployed?',
  '  The staging cluster is cheaper, but',
  '  production is where the customers',
  '  are.',
  '',
  '❯ 1. Staging cluster in … (recommended)',
  '  2. Production',
  '  ✎  Type your own answer',
  '',
  '     Staging cluster in the European',
  '     region',
  '     Cheaper, shared with the other',
  '     teams, and reset every night at',
  '     two.',
  '↑↓ move · Enter select · 1-2 choose',
  'or type an answer · Esc decline',
  'Ctrl+C cancel',
];

describe('layout', () => {
  it('wraps long text at 40 columns and never writes past the edge', async () => {
    open(40, 24);
    const answer = provider.ask(LONG);
    const screen = await terminal.waitFor('Production');
    expect(screen).toBe(LONG_AT_40.join('\n'));
    for (const line of screen.split('\n')) expect(textWidth(line)).toBeLessThan(40);
    terminal.press('2');
    await answer;
    expect(await terminal.text()).toBe('✔ Deployment · Production');
  });

  it('redraws correctly after the terminal gets narrower', async () => {
    open(60, 24);
    terminal.output.write('$ agent "deploy it"\r\n');
    const answer = provider.ask(LONG);
    await terminal.waitFor('Production');
    await terminal.resize(40, 24);
    expect(await terminal.text()).toBe(['$ agent "deploy it"', ...LONG_AT_40].join('\n'));
    terminal.press(KEYS.down);
    expect(await terminal.text()).toContain('❯ 2. Production');
    terminal.press(KEYS.enter);
    await answer;
    expect(await terminal.text()).toBe('$ agent "deploy it"\n✔ Deployment · Production');
  });

  it('redraws correctly after the terminal gets wider and taller', async () => {
    open(40, 12);
    terminal.output.write('$ earlier\r\n');
    const answer = provider.ask({ question: 'Pick one of these', options: numbered(30) });
    await terminal.waitFor('Option 1');
    await terminal.resize(70, 20);
    const screen = await terminal.text();
    expect(screen.match(/Pick one of these/g)).toHaveLength(1);
    expect(screen).toContain('❯  1. Option 1');
    expect(screen.split('\n').length).toBeLessThanOrEqual(20);
    terminal.press(KEYS.enter);
    await answer;
    expect(await terminal.text()).toContain('✔ Pick one of these · Option 1');
  });

  it('scrolls a list longer than the screen in a window, with its position shown', async () => {
    open(50, 12);
    const answer = provider.ask({
      question: 'Pick one',
      options: numbered(100),
      allowCustom: false,
    });
    let screen = await terminal.waitFor('Option 1');
    expect(screen.split('\n').length).toBeLessThanOrEqual(11);
    expect(screen).toMatch(/↓ \d+ more/);
    expect(screen).not.toMatch(/↑ \d+ more/);
    terminal.press(KEYS.up);
    screen = await terminal.text();
    expect(screen).toContain('❯ 100. Option 100');
    expect(screen).toMatch(/↑ \d+ more/);
    expect(screen).not.toMatch(/↓ \d+ more/);
    terminal.press(...Array<string>(50).fill(KEYS.down));
    screen = await terminal.text();
    expect(screen).toContain('❯  50. Option 50');
    const above = Number(/↑ (\d+) more/.exec(screen)?.[1]);
    const below = Number(/↓ (\d+) more/.exec(screen)?.[1]);
    const shown = screen.split('\n').filter((line) => /^(❯| ) +\d+\. Option/.test(line)).length;
    expect(above + below + shown).toBe(100);
    terminal.press(KEYS.enter);
    expect((await answer).answer).toBe('Option 50');
  });

  it('has no cap on the number of options', async () => {
    open(80, 24);
    const answer = provider.ask({ question: 'Pick one', options: numbered(10_000) });
    await terminal.waitFor('Option 1');
    terminal.press('9', '8', '7', '6');
    expect(await terminal.text()).toContain('❯  9876. Option 9876');
    terminal.press(KEYS.enter);
    expect((await answer).answer).toBe('Option 9876');
  });

  it('draws the text cursor where the editing happens', async () => {
    open(40, 10);
    const answer = provider.ask({ question: 'Name?' });
    await terminal.waitFor('Name?');
    terminal.press('a', 'b', 'c', KEYS.left);
    const screen = await terminal.screen();
    const row = screen.findIndex((line) => line.startsWith('❯ abc'));
    const line = terminal.terminal.buffer.active.getLine(
      terminal.terminal.buffer.active.viewportY + row,
    );
    expect(line?.getCell(4)?.isInverse()).toBeTruthy();
    expect(line?.getCell(4)?.getChars()).toBe('c');
    expect(line?.getCell(3)?.isInverse()).toBeFalsy();
    terminal.press(KEYS.enter);
    await answer;
  });

  it('scrolls a long draft sideways, keeping the cursor in view', async () => {
    open(30, 10);
    const answer = provider.ask({ question: 'Describe it' });
    await terminal.waitFor('Describe it');
    const text = 'the quick brown fox jumps over the lazy dog';
    terminal.press(...text);
    let screen = await terminal.text();
    expect(screen).toContain('❯ …');
    expect(screen).toContain('lazy dog');
    terminal.press(KEYS.home);
    screen = await terminal.text();
    expect(screen).toContain('❯ the quick');
    expect(screen).toMatch(/❯ the quick.*…/);
    terminal.press(KEYS.enter);
    expect(await answer).toEqual({ answer: text });
  });

  it('redraws only the lines that change, one write per key', async () => {
    open(80, 24);
    const answer = provider.ask({ question: 'Pick one', options: numbered(5) });
    await terminal.waitFor('Option 5');
    const before = terminal.writes;
    const length = terminal.written.length;
    terminal.press(KEYS.down);
    await terminal.flush();
    expect(terminal.writes).toBe(before + 1);
    const frame = terminal.written.slice(length);
    expect(frame).toContain('Option 1');
    expect(frame).toContain('Option 2');
    expect(frame).not.toContain('Option 3');
    expect(frame).not.toContain('Pick one');
    terminal.press(KEYS.enter);
    await answer;
  });
});
