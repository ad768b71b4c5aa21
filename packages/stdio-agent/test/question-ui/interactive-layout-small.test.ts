import { DEMO_SCRIPT } from 'dsh-agent';
import { type AskUserQuestionRequest, parseAskUserQuestionArguments } from 'dsh-user-interaction';
import { describe, expect, it } from 'vitest';
import { KEYS } from '../../src/testing.js';
import { openSized as open, provider, terminal } from '../support/menu-terminal.js';

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
