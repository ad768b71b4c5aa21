import { REASONING_NOT_PASSED_BACK, STAND_IN_QUESTION } from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { closeStandIns, standIn, standInFlags } from '../support/deepseek-stand-ins.js';
import { runProgram } from '../support/program-run.js';

// The dsh-stdio-agent program in-process on piped input, as its bin runs it; a kill -9 and a real
// terminal are the bin's: bin-deepseek.test.ts.

afterEach(async () => {
  await closeStandIns();
});

describe('the dsh-stdio-agent program against a stand-in for DeepSeek', () => {
  it('runs a full turn with a question and its answer, thinking on by default', async () => {
    const server = await standIn();
    const run = await runProgram(standInFlags(server.url), 'Paint the fence\n2\n', {
      DSH_API_KEY: server.apiKey,
    });
    expect(run.stderr).toContain('Model: deepseek-flash at');
    expect(run.stdout).toContain(STAND_IN_QUESTION.question);
    expect(run.stdout).toContain('✔ Colour · Blue');
    expect(run.stdout).toContain('Painting the fence Blue.');
    expect(run.stdout).not.toContain(REASONING_NOT_PASSED_BACK);
    expect(server.requests.map((request) => request.status)).toEqual([200, 200]);
    // Thinking was left to the server's default (on), and its reasoning went back.
    expect(server.requests[0]?.body).not.toHaveProperty('thinking');
    const messages = server.requests[1]?.body.messages as Record<string, unknown>[];
    expect(messages.find((message) => message.tool_calls !== undefined)).toHaveProperty(
      'reasoning_content',
    );
    // A pipe shows no reasoning unless asked.
    expect(run.stdout).not.toContain('I need the colour');
    expect(run.code).toBe(0);
  });

  it('turns thinking off with --thinking off, and prints reasoning with --show-thinking', async () => {
    const off = await standIn();
    const quiet = await runProgram(
      standInFlags(off.url, '--thinking', 'off'),
      'Paint the fence\n2\n',
      {
        DSH_API_KEY: off.apiKey,
      },
    );
    expect(quiet.stdout).toContain('Painting the fence Blue.');
    expect(off.requests.map((request) => request.body.thinking)).toEqual([
      { type: 'disabled' },
      { type: 'disabled' },
    ]);

    const shown = await standIn();
    const loud = await runProgram(
      standInFlags(shown.url, '--thinking', 'max', '--show-thinking'),
      'Paint the fence\n2\n',
      { DSH_API_KEY: shown.apiKey },
    );
    expect(loud.stdout).toContain('I need the colour. I will ask.\nLet me ask first.');
    expect(loud.stdout).toContain('Painting the fence Blue.');
    expect(shown.requests[0]?.body).toMatchObject({
      thinking: { type: 'enabled' },
      reasoning_effort: 'max',
    });
  });

  it('explains a retired model name with the current ones', async () => {
    const server = await standIn();
    const run = await runProgram(
      ['--base-url', server.url, '--model', 'deepseek-chat'],
      'Paint the fence\n',
      { DSH_API_KEY: server.apiKey },
    );
    expect(run.stdout).toContain('has no model "deepseek-chat"');
    expect(run.stdout).toContain(
      'The current DeepSeek models are deepseek-flash and deepseek-v4-pro',
    );
    expect(run.stdout).toContain('(MODEL_NOT_FOUND)');
  });
});
