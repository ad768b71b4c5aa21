import { REQUEST_LIMITS } from 'dsh-user-interaction';
import { describe, expect, it } from 'vitest';
import { DATABASE, NO_RECOMMENDATION, open, pipes, provider } from '../support/line-mode-pipes.js';

describe('line mode', () => {
  it('writes no colour, even where the environment would allow it', async () => {
    open({ TERM: 'xterm-256color', COLORTERM: 'truecolor' });
    pipes.input.write('x\n1\n');
    await provider.ask({ ...DATABASE, question: 'Which \u001b[31mdatabase\u001b[0m?' });
    expect(pipes.text()).not.toContain('\u001b');
    expect(pipes.text()).toContain('Which ^[[31mdatabase^[[0m?');
  });

  it('colours line mode when FORCE_COLOR asks for it', async () => {
    open({ FORCE_COLOR: '1' });
    pipes.input.write('1\n');
    await provider.ask(DATABASE);
    expect(pipes.text()).toContain('\u001b[1mDatabase\u001b[22m');
  });

  it('keeps the lines of a multi-line question readable, indented under it', async () => {
    open();
    pipes.input.write('1\n');
    await provider.ask({ options: DATABASE.options ?? [], question: 'First line.\nSecond\tline.' });
    expect(pipes.text().startsWith('? First line.\n  Second  line.\n  1. Postgres')).toBe(true);
  });

  it('refuses a typed answer longer than an answer may be, and asks again', async () => {
    open();
    const tooLong = 'x'.repeat(REQUEST_LIMITS.answerLength + 1);
    const longest = tooLong.slice(1);
    pipes.input.write(`${tooLong}\n=${tooLong}\n${longest}\n`);
    const answer = await provider.ask({ ...NO_RECOMMENDATION, allowCustom: true });
    // Never cut: the longest answer that fits is taken whole.
    expect(answer).toEqual({ answer: longest });
    const message =
      'This answer has 100,001 characters; an answer holds at most 100,000. Type a shorter one.';
    expect(pipes.text().split(message)).toHaveLength(3);
  });
});
