// The cost of each key over 10,000 options whose labels are valid but unusual: ZWJ emoji
// sequences, right-to-left text, combining marks, next to plain ASCII labels in the same run.
// Every key should be drawn within a frame whatever the labels. Prints figures; never fails on
// a timing.

import { median } from './fixtures/median.js';
import {
  loadReadlineProvider,
  providerOnTerminal,
  untilDrawn,
} from './fixtures/stdio-bench-terminal.js';

const DOWN = '\u001b[B';
const BACKSPACE = '\u007f';
const COUNT = 10_000;
const ROUNDS = 5;
/** A frame at 60 Hz: a keypress should be drawn within it. */
const FRAME_MS = 16;

type Provider = { ask(request: unknown): Promise<unknown>; dispose(): void };

/** Label kinds, each a function of the option's number. */
const LABELS: Record<string, { label: (index: number) => string; typed: string }> = {
  ascii: { label: (index) => `Option number ${index + 1} of the plain kind`, typed: 'pla' },
  'zwj emoji': {
    label: (index) => `👨‍👩‍👧‍👦 family ${index + 1} 🏳️‍🌈 👩🏽‍💻 team 🧑‍🤝‍🧑`,
    typed: 'fam',
  },
  'right-to-left': {
    label: (index) => `שלום עולם ${index + 1} مرحبا بالعالم ואפשרות נוספת`,
    typed: 'שלו',
  },
  'combining marks': {
    label: (index) => `Café crème ${index + 1} e\u0301le\u0300ve a\u0308 n\u0303o`,
    typed: 'cre',
  },
};

/** Milliseconds of the first filter key, then the slowest Backspace and arrow down. */
async function measure(
  create: (options: object) => Provider,
  { label, typed }: { label: (index: number) => string; typed: string },
): Promise<{ first: number; backspace: number; down: number; filtered: number }> {
  const { terminal, provider } = providerOnTerminal(create);
  const options = Array.from({ length: COUNT }, (_, index) => ({ label: label(index) }));
  provider.ask({ question: 'Which option?', options }).catch(() => {});
  await untilDrawn(terminal);
  const time = (key: string): number => {
    const start = process.hrtime.bigint();
    terminal.input.write(key);
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  let down = 0;
  for (let press = 0; press < 200; press++) down = Math.max(down, time(DOWN));
  // Typed at once: nothing had time to be prepared in the background.
  const [firstKey, ...nextKeys] = [...typed] as [string, ...string[]];
  const first = time(firstKey);
  let filtered = 0;
  for (const key of nextKeys) filtered = Math.max(filtered, time(key));
  let backspace = 0;
  for (let press = 0; press < 3; press++) backspace = Math.max(backspace, time(BACKSPACE));
  for (let press = 0; press < 200; press++) down = Math.max(down, time(DOWN));
  provider.dispose();
  return { first, backspace, down, filtered };
}

/** Prints, for each kind of label, the slowest keys over 10,000 options and the ratio to ASCII. */
export async function run(): Promise<void> {
  const create = await loadReadlineProvider<Provider>();
  console.log(
    `Slowest key of each kind over ${COUNT.toLocaleString('en')} options (median of ${ROUNDS} rounds; a frame: ${FRAME_MS} ms):`,
  );
  const results: Record<
    string,
    { first: number; backspace: number; down: number; filtered: number }
  > = {};
  for (const [kind, labels] of Object.entries(LABELS)) {
    const rounds = [];
    for (let round = 0; round < ROUNDS; round++) rounds.push(await measure(create, labels));
    results[kind] = {
      first: median(rounds.map((r) => r.first)),
      filtered: median(rounds.map((r) => r.filtered)),
      backspace: median(rounds.map((r) => r.backspace)),
      down: median(rounds.map((r) => r.down)),
    };
  }
  const ascii = results.ascii as (typeof results)[string];
  const ms = (value: number) => `${value.toFixed(2)} ms`.padStart(10);
  for (const [kind, result] of Object.entries(results)) {
    const ratio = (key: keyof typeof result) => (result[key] / ascii[key]).toFixed(2);
    console.log(
      `  ${kind.padEnd(16)} first filter key ${ms(result.first)} (×${ratio('first')}), next keys ${ms(result.filtered)} (×${ratio('filtered')}), Backspace ${ms(result.backspace)} (×${ratio('backspace')}), arrow down ${ms(result.down)} (×${ratio('down')})`,
    );
  }
}
