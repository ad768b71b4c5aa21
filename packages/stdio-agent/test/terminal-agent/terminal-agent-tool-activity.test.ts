import { createScriptedModel, type Script } from 'dsh-agent';
import { describe, expect, it } from 'vitest';
import { KEYS } from '../../src/testing.js';
import { fromPrompt, startAgent, waitForPrompt } from '../support/agent-harness.js';

const FAILURES: Script = {
  steps: [
    {
      text: 'Three questions.',
      toolCalls: [
        { id: 'search', name: 'search_web', arguments: { query: 'x' } },
        { id: 'bad', name: 'ask_user_question', arguments: { question: '   ' } },
        {
          id: 'db',
          name: 'ask_user_question',
          arguments: {
            header: 'Database',
            question: 'Which database?',
            options: [{ label: 'Postgres' }, { label: 'SQLite' }],
          },
        },
      ],
    },
    { text: 'Database: {{answer:db|none}}.' },
  ],
};

describe('tool activity', () => {
  it('shows each failed call in one line, its code whole: unknown tool, invalid question, declined question', async () => {
    const { terminal, type } = startAgent({ model: createScriptedModel(FAILURES), columns: 120 });
    await waitForPrompt(terminal);
    type('ask');
    await terminal.waitFor('❯ 1. Postgres');
    terminal.press(KEYS.escape);
    await terminal.waitFor('Database: none.');
    const screen = fromPrompt(await waitForPrompt(terminal), 'ask');
    const lines = screen.split('\n');
    expect(lines[1]).toBe('Three questions.');
    // The message is cut, never the code (it was cut to `(UNKNOWN_TO…` at 120 columns).
    expect(lines[2]).toMatch(
      /^✖ search_web · failed: There is no tool named "search_web"\. The tools you can call are: ask_user_questi… \(UNKNOWN_TOOL\)$/,
    );
    expect(lines[2]?.length).toBeLessThanOrEqual(119);
    expect(lines[3]).toBe(
      '✖ Question · not asked: Invalid question: `question` must not be blank. (INVALID_REQUEST)',
    );
    expect(lines.slice(4)).toEqual([
      '✖ Database · declined',
      '  ↳ the agent was told: you declined (ASK_DECLINED)',
      'Database: none.',
      '',
      '> ',
    ]);
  });

  it('cuts a long failure line to the width of the terminal, colours and all, but never its code', async () => {
    const { terminal, type } = startAgent({
      model: createScriptedModel(FAILURES),
      columns: 60,
      env: { TERM: 'xterm-256color', FORCE_COLOR: '1' },
    });
    await waitForPrompt(terminal);
    type('ask');
    await terminal.waitFor('❯ 1. Postgres');
    terminal.press('2');
    const screen = fromPrompt(await waitForPrompt(terminal), 'ask');
    const lines = screen.split('\n');
    expect(lines[2]).toMatch(/^✖ search_web · failed: There is no tool nam… \(UNKNOWN_TOOL\)$/);
    expect(lines[2]).toHaveLength(59);
    expect(lines.slice(4, 6)).toEqual(['✔ Database · SQLite', 'Database: SQLite.']);
    // The colours were reset after the cut.
    expect(terminal.written).toContain('…\u001b[0m');
  });

  it('says when a question timed out, with the time limit', async () => {
    const { terminal, type } = startAgent({
      model: createScriptedModel(FAILURES),
      questionTimeoutMs: 30,
      columns: 120,
    });
    await waitForPrompt(terminal);
    type('ask');
    await terminal.waitFor('Database: none.');
    const screen = fromPrompt(await waitForPrompt(terminal), 'ask');
    expect(screen).toContain(
      '⊘ Database · timed out, withdrawn\n  ↳ the agent was told: no answer within 30 ms (ASK_TIMEOUT)\n',
    );
  });

  it('says which questions were never asked when the input ends mid-turn, and exits 0', async () => {
    const script: Script = {
      steps: [
        {
          toolCalls: [
            {
              id: 'a',
              name: 'ask_user_question',
              arguments: { header: 'First', question: 'One?' },
            },
            {
              id: 'b',
              name: 'ask_user_question',
              arguments: { header: 'Second', question: 'Two?' },
            },
          ],
        },
        { text: 'Answers: {{answer:a|-}}, {{answer:b|-}}.' },
      ],
    };
    const { terminal, exit, type } = startAgent({
      model: createScriptedModel(script),
      columns: 120,
    });
    await waitForPrompt(terminal);
    type('go');
    await terminal.waitFor('One?');
    terminal.input.end();
    expect(await exit).toBe(0);
    const screen = fromPrompt(await terminal.text(), 'go');
    expect(screen).toBe(
      [
        '> go',
        '⊘ First · not answered: input closed',
        '  ↳ the agent was told: the input ended (INPUT_CLOSED)',
        '✖ Second · not asked: the input ended (INPUT_CLOSED)',
        'Answers: -, -.',
      ].join('\n'),
    );
  });
});
