import { DEMO_SCRIPT } from 'dsh-agent';
import { type AskUserQuestionRequest, parseAskUserQuestionArguments } from 'dsh-user-interaction';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReadlineProvider } from '../../src/index.js';
import { type FakeTerminal, KEYS } from '../../src/testing.js';
import { textWidth } from '../../src/text/text-width.js';
import { providerOnTerminal } from '../support/question-provider.js';

let terminal: FakeTerminal;
let provider: ReadlineProvider;

function open(columns: number, rows: number): void {
  ({ terminal, provider } = providerOnTerminal({ columns, rows, escapeCodeTimeout: 10 }));
}

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

/** The demo's first question: a header, a one-line question, four described options. */
const DEMO = parseAskUserQuestionArguments(
  DEMO_SCRIPT.steps[0]?.toolCalls?.[0]?.arguments,
) as AskUserQuestionRequest;
const DEMO_OPTIONS = DEMO.options ?? [];
/** The same question, its options without descriptions. */
const BARE = {
  ...DEMO,
  options: DEMO_OPTIONS.map(({ label, ...rest }) =>
    'recommended' in rest ? { label, recommended: rest.recommended } : { label },
  ),
};
const LABELS = DEMO_OPTIONS.map((option) => option.label);
const OPTION_ROW = /^(❯| ) +\d+\. /;
const HIDDEN = /[↑↓] \d+ more/;

/**
 * Rows of the frame that show nothing while they could: rows left unused under it, and
 * blank rows other than the one under the question and the one above the details pane.
 */
function wastedRows(lines: readonly string[], rows: number): number {
  let wasted = rows - 1 - lines.length;
  for (let index = 0; index < lines.length; index++) {
    if (lines[index] !== '') continue;
    const next = lines[index + 1] ?? '';
    const gap = OPTION_ROW.test(next) || next.startsWith('❯ ✎') || next.startsWith('  ✎');
    const separator = /^ {5,}\S/.test(next) && !OPTION_ROW.test(next);
    if (!gap && !separator) wasted++;
  }
  return wasted;
}

/** What a person must be able to see of the demo question, whatever the focus. */
function expectReadable(screen: string, rows: number, focus: number): void {
  const lines = screen.split('\n');
  expect(lines.length).toBeLessThanOrEqual(rows - 1);
  expect(lines.join(' ').replace(/ +/g, ' ')).toContain(DEMO.question);
  expect(screen).not.toContain('…');
  expect(lines.filter((line) => line.startsWith('❯'))).toEqual([
    expect.stringContaining(`${focus + 1}. ${LABELS[focus]}`),
  ]);
  if (HIDDEN.test(screen)) expect(wastedRows(lines, rows)).toBe(0);
}

afterEach(() => {
  provider?.dispose();
  terminal?.dispose();
});

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

describe('layout on small terminals', () => {
  /** The demo question's options as the list shows them, the first focused. */
  const LIST_ROWS = ['❯ 1. TypeScript (recommended)', '  2. Go', '  3. Python', '  4. Rust'];
  /** The demo question's frame at each size. */
  const DEMO_SCREENS: Record<string, string[]> = {
    '40x14': [
      '? Language',
      '  Which language should the new service',
      '  be written in?',
      '',
      ...LIST_ROWS,
      '',
      '     Node.js with strict types: what',
      '     the rest of the team uses.',
      '↑↓ move · Enter select · 1-4 choose',
      'Esc decline · Ctrl+C cancel',
    ],
    '50x10': [
      '? Language',
      '  Which language should the new service be',
      '  written in?',
      ...LIST_ROWS,
      '↑↓ move · Enter select · 1-4 choose · Esc decline',
      'Ctrl+C cancel',
    ],
    '80x12': [
      '? Language',
      '  Which language should the new service be written in?',
      '',
      ...LIST_ROWS,
      '',
      '     Node.js with strict types: what the rest of the team uses.',
      '↑↓ move · Enter select · 1-4 choose · Esc decline · Ctrl+C cancel',
    ],
  };
  /** Without descriptions the frame is the same but for its details pane (the rows after the list). */
  function withoutDetails(screen: readonly string[]): string[] {
    const hints = screen.findIndex((line) => line.startsWith('↑↓ move'));
    return [...screen.slice(0, screen.indexOf(LIST_ROWS[3] as string) + 1), ...screen.slice(hints)];
  }
  const SCREENS: Record<string, { request: typeof DEMO | typeof BARE; screen: string[] }> =
    Object.fromEntries([
      ...Object.entries(DEMO_SCREENS).map(([size, screen]) => [
        `the demo question at ${size}`,
        { request: DEMO, screen },
      ]),
      ...Object.entries(DEMO_SCREENS).map(([size, screen]) => [
        `options without descriptions at ${size}`,
        { request: BARE, screen: withoutDetails(screen) },
      ]),
    ]);

  for (const [name, { request, screen }] of Object.entries(SCREENS)) {
    it(`shows the whole question, every option and no spurious … for ${name}`, async () => {
      const [columns, rows] = (/(\d+)x(\d+)$/.exec(name) as RegExpExecArray)
        .slice(1)
        .map(Number) as [number, number];
      open(columns, rows);
      const answer = provider.ask(request);
      expect(await terminal.waitFor('Rust')).toBe(screen.join('\n'));
      const hintsAt = screen.findIndex((line) => line.startsWith('↑↓ move'));
      for (let focus = 0; focus < LABELS.length; focus++) {
        if (focus > 0) terminal.press(KEYS.down);
        const shown = await terminal.text();
        expectReadable(shown, rows, focus);
        for (const label of LABELS) expect(shown).toContain(label);
        // The rows stay put while the focus moves: every description here takes as many lines.
        expect(shown.split('\n').findIndex((line) => line.startsWith('↑↓ move'))).toBe(hintsAt);
      }
      terminal.press(KEYS.enter);
      expect((await answer).answer).toBe('Rust');
    });
  }

  it('keeps the question whole and the focus visible on screens too small for the list', async () => {
    for (const [columns, rows] of [
      [40, 8],
      [50, 7],
      [80, 7],
    ] as const) {
      open(columns, rows);
      const answer = provider.ask(DEMO);
      let screen = await terminal.waitFor('TypeScript');
      expect(screen).toMatch(HIDDEN);
      for (let focus = 0; focus < LABELS.length; focus++) {
        if (focus > 0) {
          terminal.press(KEYS.down);
          screen = await terminal.text();
        }
        expectReadable(screen, rows, focus);
      }
      terminal.press(KEYS.escape);
      await expect(answer).rejects.toMatchObject({ code: 'ASK_DECLINED' });
      provider.dispose();
      terminal.dispose();
    }
  });

  it('cuts a question that cannot fit with …, and only then', async () => {
    open(40, 10);
    const question = `${DEMO.question} It will run next to the billing service, which is written in Go, share its deployment pipeline, and be kept by the same team for years, so pick with care.`;
    const answer = provider.ask({ ...DEMO, question });
    const screen = (await terminal.waitFor('TypeScript')).split('\n');
    const title = screen.slice(
      0,
      screen.findIndex((line) => OPTION_ROW.test(line)),
    );
    expect(title.at(-1)).toMatch(/…$/);
    expect(screen.filter((line) => line.includes('…'))).toEqual([title.at(-1)]);
    // The list keeps its rows: a question that is cut anyway does not take them all.
    expect(screen.filter((line) => OPTION_ROW.test(line)).length).toBeGreaterThanOrEqual(3);
    expect(wastedRows(screen, 10)).toBe(0);
    terminal.press(KEYS.enter);
    expect((await answer).answer).toBe('TypeScript');
  });

  it('gives hidden options the rows a focused option without details does not need', async () => {
    open(50, 14);
    const options = Array.from({ length: 30 }, (_, index) =>
      index % 3 === 0
        ? {
            label: `Option ${index + 1}`,
            description: 'A description that takes two lines at this width, surely.',
          }
        : { label: `Option ${index + 1}` },
    );
    const answer = provider.ask({ header: 'Pick', question: 'Which option?', options });
    await terminal.waitFor('Option 1');
    let row: number | undefined;
    for (let focus = 0; focus < 20; focus++) {
      if (focus > 0) terminal.press(KEYS.down);
      const lines = (await terminal.text()).split('\n');
      expect(
        lines.some((line) => line.startsWith(`❯ ${String(focus + 1).padStart(2)}. Option`)),
      ).toBe(true);
      expect(lines.join('\n')).toMatch(HIDDEN);
      expect(wastedRows(lines, 14)).toBe(0);
      const described = focus % 3 === 0;
      expect(lines.some((line) => line.includes('A description'))).toBe(described);
      // Once the window scrolls, the focused row keeps its place on the screen.
      const at = lines.findIndex((line) => line.startsWith('❯'));
      if (focus >= 10) {
        row ??= at;
        expect(at).toBe(row);
      }
    }
    terminal.press(KEYS.enter);
    expect((await answer).answer).toBe('Option 20');
  });
});
