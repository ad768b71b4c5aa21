// The cost of one keypress in the interactive menu, with 10 and with 10,000 options, in
// the same run. The work per key should follow the visible window, not the list: the
// ratio should stay near 1. Prints figures; never fails on a timing.

import { median } from './fixtures/median.js';
import {
  loadReadlineProvider,
  providerOnTerminal,
  untilDrawn,
} from './fixtures/stdio-bench-terminal.js';

const DOWN = '\u001b[B';
const UP = '\u001b[A';
const TAB = '\t';
const SPACE = ' ';
const BACKSPACE = '\u007f';
/** Typing to filter: a search of every option, two narrower ones, then Backspace back to all. */
const FILTER_KEYS = ['u', 'm', 'b', BACKSPACE, BACKSPACE, BACKSPACE];
const FILTER_PRESSES = 3_000;
/** A frame at 60 Hz: a keypress should be drawn within it. */
const FRAME_MS = 16;
/** How long a person takes at least to read a question before typing. */
const READ_MS = 100;
const WARM_UP = 2_000;
const PRESSES = 20_000;
const ROUNDS = 5;

type Provider = {
  ask(request: unknown): Promise<unknown>;
  askAll(request: unknown): Promise<unknown>;
  dispose(): void;
};

function optionsOf(count: number) {
  return Array.from({ length: count }, (_, index) => ({
    label: `Option number ${index + 1}`,
    description: index % 2 === 0 ? 'A short description of this option.' : undefined,
  }));
}

/**
 * Nanoseconds per keypress for a list of `count` options, pressing `keys` in turn; with
 * `questions`, the list is the first of that many questions asked at once.
 */
async function measure(
  create: (options: object) => Provider,
  count: number,
  keys: readonly string[],
  questions = 0,
): Promise<{ ns: number; bytes: number }> {
  const { terminal, provider } = providerOnTerminal(create);
  const options = optionsOf(count);
  const answer =
    questions === 0
      ? provider.ask({ question: 'Which option should we take?', options })
      : provider.askAll({
          questions: Array.from({ length: questions }, (_, index) => ({
            id: `q${index + 1}`,
            header: `Question ${index + 1}`,
            question: 'Which options should we take?',
            options,
            multiSelect: index % 2 === 1,
          })),
        });
  answer.catch(() => {});
  await untilDrawn(terminal);
  for (let press = 0; press < WARM_UP; press++)
    terminal.input.write(keys[press % keys.length] as string);
  // Each write is decoded, handled and drawn synchronously, so the loop times all of it.
  const bytesBefore = terminal.bytes();
  const start = process.hrtime.bigint();
  for (let press = 0; press < PRESSES; press++)
    terminal.input.write(keys[press % keys.length] as string);
  const elapsed = Number(process.hrtime.bigint() - start);
  const bytes = (terminal.bytes() - bytesBefore) / PRESSES;
  if (bytes === 0)
    throw new Error('The keypresses drew nothing: the measure would be meaningless.');
  provider.dispose();
  return { ns: elapsed / PRESSES, bytes };
}

/**
 * Typing to filter a list of `count` options: the first letter (the search keys are built
 * then, once per question), then `FILTER_KEYS` again and again. Times every key on its own.
 */
async function measureFilter(
  create: (options: object) => Provider,
  count: number,
  readMs = 0,
): Promise<{ firstMs: number; ns: number; slowestMs: number; bytes: number }> {
  const { terminal, provider } = providerOnTerminal(create);
  provider
    .ask({ question: 'Which option should we take?', options: optionsOf(count) })
    .catch(() => {});
  await untilDrawn(terminal);
  const time = (key: string): number => {
    const start = process.hrtime.bigint();
    terminal.input.write(key);
    return Number(process.hrtime.bigint() - start);
  };
  // A person reads the question before typing: the search keys are folded meanwhile.
  if (readMs > 0) await new Promise((resolve) => setTimeout(resolve, readMs));
  const firstMs = time('u') / 1e6;
  for (let press = 0; press < 60; press++) time(FILTER_KEYS[press % FILTER_KEYS.length] as string);
  const bytesBefore = terminal.bytes();
  let total = 0;
  let slowest = 0;
  for (let press = 0; press < FILTER_PRESSES; press++) {
    const elapsed = time(FILTER_KEYS[press % FILTER_KEYS.length] as string);
    total += elapsed;
    slowest = Math.max(slowest, elapsed);
  }
  const bytes = (terminal.bytes() - bytesBefore) / FILTER_PRESSES;
  if (bytes === 0)
    throw new Error('The keypresses drew nothing: the measure would be meaningless.');
  provider.dispose();
  return { firstMs, ns: total / FILTER_PRESSES, slowestMs: slowest / 1e6, bytes };
}

/**
 * Typing to filter with 10 and with 10,000 options, next to the plain redraw (arrow down) of
 * the same 10,000 options, in the same run.
 */
async function compareFilter(create: (options: object) => Provider): Promise<void> {
  const plain: number[] = [];
  const few: number[] = [];
  const many: number[] = [];
  let last = { firstMs: 0, slowestMs: 0, bytes: 0 };
  let slowest = 0;
  const atOnce: number[] = [];
  const afterReading: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    plain.push((await measure(create, 10_000, [DOWN])).ns);
    few.push((await measureFilter(create, 10)).ns);
    const large = await measureFilter(create, 10_000);
    many.push(large.ns);
    slowest = Math.max(slowest, large.slowestMs);
    atOnce.push(large.firstMs);
    afterReading.push((await measureFilter(create, 10_000, READ_MS)).firstMs);
    last = large;
  }
  const ns = (value: number) => `${Math.round(value).toLocaleString('en')} ns/keypress`;
  console.log(
    `Typing to filter ("u", "m", "b", then Backspace three times; ${FILTER_PRESSES.toLocaleString('en')} keys a round), next to arrow down:`,
  );
  console.log(`  arrow down, 10,000 options:  ${ns(median(plain))}`);
  console.log(`  filter, 10 options:          ${ns(median(few))}`);
  console.log(
    `  filter, 10,000 options:      ${ns(median(many))}, ${last.bytes.toFixed(0)} bytes written`,
  );
  console.log(
    `  ratio filter / arrow down at 10,000 options: ${(median(many) / median(plain)).toFixed(2)}; filter 10,000 / 10: ${(median(many) / median(few)).toFixed(2)}`,
  );
  console.log(
    `  slowest filter key at 10,000 options: ${slowest.toFixed(2)} ms (a frame: ${FRAME_MS} ms)`,
  );
  console.log(
    `  first letter, median: ${median(afterReading).toFixed(2)} ms ${READ_MS} ms after the question appeared (the search keys folded meanwhile); ${median(atOnce).toFixed(2)} ms typed at once (most keys folded then)`,
  );
}

async function compare(
  create: (options: object) => Provider,
  label: string,
  keys: string[],
  counts: readonly [number, number] = [10, 10_000],
) {
  const [few, many] = counts;
  const small: number[] = [];
  const large: number[] = [];
  let bytes = { small: 0, large: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    const a = await measure(create, few, keys);
    const b = await measure(create, many, keys);
    small.push(a.ns);
    large.push(b.ns);
    bytes = { small: a.bytes, large: b.bytes };
  }
  const fewNs = median(small);
  const manyNs = median(large);
  const name = (count: number) => `${count.toLocaleString('en')} options:`.padEnd(16);
  console.log(label);
  console.log(
    `  ${name(few)} ${Math.round(fewNs).toLocaleString('en')} ns/keypress, ${bytes.small.toFixed(0)} bytes written`,
  );
  console.log(
    `  ${name(many)} ${Math.round(manyNs).toLocaleString('en')} ns/keypress, ${bytes.large.toFixed(0)} bytes written`,
  );
  console.log(
    `  ratio ${many.toLocaleString('en')} / ${few.toLocaleString('en')}: ${(manyNs / fewNs).toFixed(2)}`,
  );
}

/**
 * One keypress on a screen of several questions against the same list asked alone: the work
 * per key should follow the page on screen, not the number of questions or their options.
 */
async function compareSet(
  create: (options: object) => Provider,
  label: string,
  keys: string[],
  questions: number,
  count: number,
) {
  const alone: number[] = [];
  const set: number[] = [];
  let bytes = { alone: 0, set: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    const a = await measure(create, count, [DOWN]);
    const b = await measure(create, count, keys, questions);
    alone.push(a.ns);
    set.push(b.ns);
    bytes = { alone: a.bytes, set: b.bytes };
  }
  const aloneNs = median(alone);
  const setNs = median(set);
  console.log(label);
  console.log(
    `  one question of ${count.toLocaleString('en')} options, arrow down: ${Math.round(aloneNs).toLocaleString('en')} ns/keypress, ${bytes.alone.toFixed(0)} bytes written`,
  );
  console.log(
    `  ${questions} questions of ${count.toLocaleString('en')} options each: ${Math.round(setNs).toLocaleString('en')} ns/keypress, ${bytes.set.toFixed(0)} bytes written`,
  );
  console.log(`  ratio: ${(setNs / aloneNs).toFixed(2)}`);
}

/** Prints the cost of one keypress redraw with 10 and 10,000 options. */
export async function run(): Promise<void> {
  const create = await loadReadlineProvider<Provider>();
  console.log(
    `Median of ${ROUNDS} rounds of ${PRESSES.toLocaleString('en')} keypresses each, on a 100x30 terminal.`,
  );
  await compare(create, 'Arrow down, again and again (the long list scrolls its window):', [DOWN]);
  await compare(create, 'Arrow down then up (no list scrolls):', [DOWN, UP]);
  // Ten options take ten rows; a long list fills the window. With the same window on both
  // sides, what is left of the ratio is what the length of the list costs.
  await compare(create, 'Arrow down, both lists filling the window:', [DOWN], [100, 10_000]);
  await compareFilter(create);
  await compareSet(
    create,
    'Several questions at once, arrow down in the first list:',
    [DOWN],
    10,
    1_000,
  );
  await compareSet(
    create,
    'Several questions at once, Tab to the next question and Space to tick (every other one takes several):',
    [TAB, SPACE, TAB, DOWN],
    10,
    1_000,
  );
}
