// One huge line in a model's stream: a text delta of 4, 16 and 50 MB in a single SSE `data:`
// line, from a loopback chat-completions server, through the OpenAI-compatible model. The
// `openai` package's own decoder took quadratic time (4 MB 1.4 s, 16 MB ~17 s, 50 MB never
// ended); the model now hands it whole events. Baseline in the same run: the same response
// fetched from the same server and cut into lines by a plain linear splitter (chunks kept,
// joined once at the newline), then parsed. Prints figures; never fails on a timing.
import { createOpenAICompatibleModel } from 'dsh-agent';
import { chunk, startChatServer } from 'dsh-agent/testing';
import { median } from './fixtures/median.js';

const MB = 1_000_000;
const SIZES = [4, 16, 50];
const ROUNDS = 3;

/** Milliseconds to stream the answer through the model, and the text length it got. */
async function throughModel(url: string): Promise<{ ms: number; length: number }> {
  const model = createOpenAICompatibleModel({ baseURL: url, model: 'bench', apiKey: 'sk-bench' });
  const signal = new AbortController().signal;
  const start = performance.now();
  let length = 0;
  for await (const event of model.stream({
    messages: [{ role: 'user', content: 'hi' }],
    tools: [],
    signal,
  })) {
    if (event.type === 'text-delta') length += event.text.length;
  }
  return { ms: performance.now() - start, length };
}

/** Milliseconds to fetch the same answer and cut it into lines with a linear splitter. */
async function throughSplitter(url: string): Promise<{ ms: number; length: number }> {
  const start = performance.now();
  const response = await fetch(`${url}/chat/completions`, { method: 'POST', body: '{}' });
  if (response.body === null) throw new Error('No body.');
  const decoder = new TextDecoder();
  let parts: Uint8Array[] = [];
  let length = 0;
  const line = (bytes: Uint8Array): void => {
    const text = decoder.decode(bytes);
    if (!text.startsWith('data: {')) return;
    const data = JSON.parse(text.slice(6)) as { choices: { delta: { content?: string } }[] };
    length += data.choices[0]?.delta.content?.length ?? 0;
  };
  for await (const piece of response.body) {
    let from = 0;
    for (let at = piece.indexOf(0x0a); at !== -1; at = piece.indexOf(0x0a, from)) {
      parts.push(piece.subarray(from, at));
      line(Buffer.concat(parts));
      parts = [];
      from = at + 1;
    }
    if (from < piece.length) parts.push(piece.subarray(from));
  }
  return { ms: performance.now() - start, length };
}

export async function run(): Promise<void> {
  console.log('| line | model | linear splitter | ratio |');
  console.log('| ---: | ---: | ---: | ---: |');
  for (const size of SIZES) {
    const text = 'x'.repeat(size * MB);
    const reply = { chunks: [chunk({ content: text }), chunk({}, 'stop')] };
    const server = await startChatServer(Array.from({ length: 2 * ROUNDS }, () => reply));
    try {
      const model: number[] = [];
      const splitter: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const byModel = await throughModel(server.url);
        const bySplitter = await throughSplitter(server.url);
        if (byModel.length !== text.length || bySplitter.length !== text.length) {
          throw new Error(`A ${size} MB line did not arrive whole.`);
        }
        model.push(byModel.ms);
        splitter.push(bySplitter.ms);
      }
      const [m, s] = [median(model), median(splitter)];
      console.log(
        `| ${size} MB | ${m.toFixed(0)} ms | ${s.toFixed(0)} ms | ${(m / s).toFixed(2)}× |`,
      );
    } finally {
      await server.close();
    }
  }
  console.log(
    '\nMedian of 3 rounds. Linear work keeps the ratio about the same from 4 MB to 50 MB.',
  );
}
