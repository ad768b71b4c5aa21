// The cost of asking through the contract's service against calling the provider directly.
// Both run in the same process, interleaved round by round; the figures are medians.
import {
  type AskUserQuestionRequest,
  answerForOption,
  createUserInteraction,
  type UserInteractionProvider,
  validateRequest,
} from 'dsh-user-interaction';
import { median } from './fixtures/median.js';

const ASKS_PER_ROUND = 100_000;
const ROUNDS = 9;

const provider: UserInteractionProvider = {
  async ask(request) {
    const option = request.options?.[0];
    if (option === undefined) throw new Error('unexpected');
    return answerForOption(option);
  },
};

const options = [
  { label: 'PostgreSQL', value: 'postgres', recommended: true },
  { label: 'SQLite' },
  { label: 'MySQL' },
];
const turn = new AbortController();
const cases: Record<string, AskUserQuestionRequest> = {
  'no signal': { question: 'Which database?', header: 'Database', options },
  'with a signal (as the agent asks)': {
    question: 'Which database?',
    header: 'Database',
    options,
    signal: turn.signal,
  },
  'with a signal and a time limit': {
    question: 'Which database?',
    header: 'Database',
    options,
    signal: turn.signal,
    timeoutMs: 60_000,
  },
};

async function nsPerAsk(
  ask: (request: AskUserQuestionRequest) => Promise<unknown>,
  request: AskUserQuestionRequest,
) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < ASKS_PER_ROUND; i++) await ask(request);
  return Number(process.hrtime.bigint() - start) / ASKS_PER_ROUND;
}

export async function run(): Promise<void> {
  const interaction = createUserInteraction();
  interaction.registerProvider(provider);
  const direct = (request: AskUserQuestionRequest) => provider.ask(request);
  const service = (request: AskUserQuestionRequest) => interaction.ask(request);
  console.log(
    `ask() against provider.ask(), ${ASKS_PER_ROUND.toLocaleString('en')} sequential asks x ${ROUNDS} rounds, medians:`,
  );
  console.log('| request | provider directly | through ask() | overhead | ratio |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  const overheads: Record<string, number> = {};
  for (const [name, request] of Object.entries(cases)) {
    // Warm both paths up before measuring.
    await nsPerAsk(direct, request);
    await nsPerAsk(service, request);
    const baseline: number[] = [];
    const measured: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      baseline.push(await nsPerAsk(direct, request));
      measured.push(await nsPerAsk(service, request));
    }
    const base = median(baseline);
    const ours = median(measured);
    overheads[name] = ours - base;
    console.log(
      `| ${name} | ${base.toFixed(0)} ns | ${ours.toFixed(0)} ns | ${(ours - base).toFixed(0)} ns | ${(ours / base).toFixed(2)}x |`,
    );
  }
  const agentPath = overheads['with a signal (as the agent asks)'] ?? Number.NaN;
  console.log(
    `Goal: overhead well under 10,000 ns per ask with a signal, as the agent asks: ${agentPath.toFixed(0)} ns (${agentPath < 10_000 ? 'met' : 'not met'} in this run).`,
  );

  await longList();
}

const LONG_LIST = 10_000;
const LONG_ROUNDS = 15;

/**
 * Checking 10,000 options (the most a question may have), against the least a snapshot of them
 * costs: a frozen copy of each, with no checks. ASCII labels, and labels that need Unicode work.
 */
async function longList(): Promise<void> {
  const lists = {
    'ASCII labels': Array.from({ length: LONG_LIST }, (_, i) => ({
      label: `Option number ${i}`,
      value: `v${i}`,
      description: 'What this option does.',
    })),
    'accented labels': Array.from({ length: LONG_LIST }, (_, i) => ({
      label: `Öption número ${i}`,
      value: `v${i}`,
    })),
  };
  console.log(
    `\nvalidateRequest() with ${LONG_LIST.toLocaleString('en')} options against a frozen copy of them, ${LONG_ROUNDS} rounds, medians:`,
  );
  console.log('| options | frozen copy | validateRequest() | ratio |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const [name, options] of Object.entries(lists)) {
    const request = { question: 'Which one?', options };
    const copy = () => Object.freeze(options.map((option) => Object.freeze({ ...option })));
    const baseline: number[] = [];
    const measured: number[] = [];
    for (let round = 0; round < LONG_ROUNDS; round++) {
      baseline.push(time(copy));
      measured.push(time(() => validateRequest(request)));
    }
    const base = median(baseline);
    const ours = median(measured);
    console.log(
      `| ${name} | ${base.toFixed(2)} ms | ${ours.toFixed(2)} ms | ${(ours / base).toFixed(2)}x |`,
    );
  }
}

function time(run: () => unknown): number {
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}
