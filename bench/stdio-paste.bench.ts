// The cost of a bracketed paste into a typed answer: 16,000 ASCII characters and 4,000 CJK
// characters, each pasted into a question with no options, in chunks of the size a terminal
// delivers; and the same paste at an approval, where it answers nothing and is only skipped. Baselines in the same run: the same bytes decoded into keys and nothing else, and
// the same bytes typed into a plain readline Interface. Prints figures; never fails on a timing.
import { createInterface, emitKeypressEvents } from 'node:readline';
import { PassThrough } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { median } from './fixtures/median.js';
import {
  fakeTerminal,
  loadReadlineProvider,
  providerOnTerminal,
  untilDrawn,
} from './fixtures/stdio-bench-terminal.js';

// A collection before each measure, so that one contender's garbage is not swept on another's time.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

const PASTE_START = '\u001b[200~';
const PASTE_END = '\u001b[201~';
/** What a pseudo-terminal hands over in one read. */
const CHUNK = 4_096;
const ROUNDS = 5;

type Provider = {
  ask(request: unknown): Promise<{ answer: string }>;
  requestPermission(request: unknown): Promise<{ choice: string }>;
  dispose(): void;
};

/** The paste as the terminal sends it, cut into chunks (never inside a character). */
function pasteChunks(text: string): string[] {
  const bytes = Array.from(`${PASTE_START}${text}${PASTE_END}`);
  const chunks: string[] = [];
  let chunk = '';
  for (const character of bytes) {
    if (Buffer.byteLength(chunk) + Buffer.byteLength(character) > CHUNK) {
      chunks.push(chunk);
      chunk = '';
    }
    chunk += character;
  }
  chunks.push(chunk);
  return chunks;
}

/**
 * Milliseconds to paste `text` once the question is drawn. Each chunk is decoded, applied and drawn
 * synchronously, so the loop times all of it; a paste that draws nothing is `nothingDrawn`.
 */
async function timedPaste(
  terminal: ReturnType<typeof providerOnTerminal>['terminal'],
  text: string,
  nothingDrawn: string,
): Promise<number> {
  await untilDrawn(terminal);
  const chunks = pasteChunks(text);
  const before = terminal.bytes();
  const start = process.hrtime.bigint();
  for (const chunk of chunks) terminal.input.write(chunk);
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  if (terminal.bytes() === before) throw new Error(nothingDrawn);
  return elapsed;
}

/** Milliseconds to take the paste into the question's editor and draw it. */
async function intoQuestion(create: (options: object) => Provider, text: string) {
  const { terminal, provider } = providerOnTerminal(create);
  const answer = provider.ask({ question: 'Paste the log here:' });
  const elapsed = await timedPaste(terminal, text, 'The paste drew nothing.');
  terminal.input.write('\r');
  const { answer: taken } = await answer;
  if (taken !== text.trim()) throw new Error('The answer is not the pasted text.');
  provider.dispose();
  return elapsed;
}

/** Milliseconds to skip the paste at an approval (it answers nothing) and draw its notice. */
async function intoApproval(create: (options: object) => Provider, text: string) {
  const { terminal, provider } = providerOnTerminal(create);
  const answer = provider.requestPermission({
    toolCallId: 'call-1',
    title: 'Run npm test',
    kind: 'execute',
    command: { command: 'npm test', cwd: '/work/project' },
  });
  const elapsed = await timedPaste(terminal, text, 'The paste drew no notice.');
  terminal.input.write('n');
  if ((await answer).choice !== 'reject_once') throw new Error('The paste answered the approval.');
  provider.dispose();
  return elapsed;
}

const LEFT = '\u001b[D';
const RIGHT = '\u001b[C';
const BACKSPACE = '\u007f';
const KEY_PRESSES = 2_000;

/** Microseconds per key, pressing `keys` in turn, in the middle of a draft holding `text`. */
async function keyInDraft(create: (options: object) => Provider, text: string, keys: string[]) {
  const { terminal, provider } = providerOnTerminal(create);
  const answer = provider.ask({ question: 'Paste the log here:' });
  answer.catch(() => {});
  await untilDrawn(terminal);
  for (const chunk of pasteChunks(text)) terminal.input.write(chunk);
  // The cursor goes to the middle, where both sides of the line are cut.
  for (let press = 0; press < Array.from(text).length / 2; press++) terminal.input.write(LEFT);
  const before = terminal.bytes();
  const start = process.hrtime.bigint();
  for (let press = 0; press < KEY_PRESSES; press++) {
    terminal.input.write(keys[press % keys.length] as string);
  }
  const elapsed = Number(process.hrtime.bigint() - start) / 1e3;
  if (terminal.bytes() === before) throw new Error('The keys drew nothing.');
  provider.dispose();
  return elapsed / KEY_PRESSES;
}

/** Milliseconds to decode the same bytes into keypresses, with nobody acting on them. */
function decodeOnly(text: string): number {
  const input = new PassThrough();
  emitKeypressEvents(input);
  let keys = 0;
  input.on('keypress', () => {
    keys++;
  });
  const start = process.hrtime.bigint();
  for (const chunk of pasteChunks(text)) input.write(chunk);
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  if (keys < text.length / 2) throw new Error('The keys were not decoded.');
  return elapsed;
}

/** Milliseconds for a plain readline Interface in terminal mode to take the same bytes. */
function intoReadline(text: string): number {
  const terminal = fakeTerminal();
  const rl = createInterface({ input: terminal.input, output: terminal.output, terminal: true });
  const start = process.hrtime.bigint();
  for (const chunk of pasteChunks(text)) terminal.input.write(chunk);
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  if (rl.line.length < text.length / 2) throw new Error('readline did not take the paste.');
  rl.close();
  return elapsed;
}

const format = (ms: number) => `${ms.toFixed(2)} ms`.padStart(10);

/** Prints ms per paste for the question's editor and both baselines. */
export async function run(): Promise<void> {
  const create = await loadReadlineProvider<Provider>();
  const pastes = {
    '16,000 ASCII characters': 'The quick brown fox jumps over the lazy dog. '
      .repeat(400)
      .slice(0, 16_000),
    '4,000 CJK characters': '日本語の文章を貼り付けます。'.repeat(300).slice(0, 4_000),
  };
  console.log(
    `ms per paste (bracketed, in ${CHUNK.toLocaleString('en')}-byte chunks), median of ${ROUNDS} rounds, 100x30 terminal.`,
  );
  for (const [name, text] of Object.entries(pastes)) {
    const ours: number[] = [];
    const approval: number[] = [];
    const decoded: number[] = [];
    const readline: number[] = [];
    // Interleaved, so that a slow moment of the machine weighs on every contender alike.
    for (let round = 0; round < ROUNDS + 1; round++) {
      collect();
      const a = await intoQuestion(create, text);
      collect();
      const b = decodeOnly(text);
      collect();
      const c = intoReadline(text);
      collect();
      const d = await intoApproval(create, text);
      if (round === 0) continue; // warm-up
      ours.push(a);
      approval.push(d);
      decoded.push(b);
      readline.push(c);
    }
    const [question, keys, plain] = [median(ours), median(decoded), median(readline)];
    console.log(name);
    console.log(`  into a question's editor  ${format(question)}`);
    console.log(
      `  keys decoded, no action   ${format(keys)}   ratio ${(question / keys).toFixed(2)}`,
    );
    console.log(
      `  plain readline Interface  ${format(plain)}   ratio ${(question / plain).toFixed(2)}`,
    );
    const skipped = median(approval);
    console.log(
      `  at an approval (skipped)  ${format(skipped)}   ratio to keys decoded ${(skipped / keys).toFixed(2)}`,
    );
  }

  console.log(
    `\nµs per key in the middle of a draft (${KEY_PRESSES.toLocaleString('en')} keys, median of ${ROUNDS} rounds): a long draft against a short one.`,
  );
  const drafts = {
    ASCII: [pastes['16,000 ASCII characters'], 'The quick brown fox jumps over the lazy dog.'],
    CJK: [pastes['4,000 CJK characters'], '日本語の文章を貼り付けます。'],
  } as const;
  const keySets = { '← →': [LEFT, RIGHT], 'type, Backspace': ['x', BACKSPACE] };
  for (const [script, [long, short]] of Object.entries(drafts)) {
    for (const [name, keys] of Object.entries(keySets)) {
      const longTimes: number[] = [];
      const shortTimes: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        collect();
        longTimes.push(await keyInDraft(create, long, keys));
        collect();
        shortTimes.push(await keyInDraft(create, short, keys));
      }
      const [many, few] = [median(longTimes), median(shortTimes)];
      const label = `${script}, ${name}:`.padEnd(24);
      console.log(
        `  ${label} ${Array.from(long).length.toLocaleString('en')} characters ${many.toFixed(1)} µs, ${Array.from(short).length} characters ${few.toFixed(1)} µs, ratio ${(many / few).toFixed(2)}`,
      );
    }
  }
}
