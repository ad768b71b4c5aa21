import { PassThrough } from 'node:stream';
import { ModelError, type ModelEvent } from 'dsh-agent';
import { programCommand } from 'dsh-agent/command-line';
import { deferred, stepModel, textStep } from 'dsh-agent/testing';
import { toToolError } from 'dsh-user-interaction';
import { describe, expect, it } from 'vitest';
import { runTerminalAgent } from '../../src/terminal-agent.js';
import { TEST_ENV } from '../../src/testing.js';
import {
  expectTurn,
  fromPrompt,
  manualClock,
  startAgent,
  waitForPrompt,
} from '../support/agent-harness.js';

/** A retry after the server said it was busy, its error as the model reports it. */
const BUSY: ModelEvent = {
  type: 'retry',
  attempt: 2,
  attempts: 3,
  delayMs: 2_000,
  error: toToolError(
    new ModelError(
      'The model server at http://127.0.0.1:8080/v1 failed (HTTP 503: busy).',
      'MODEL_UNAVAILABLE',
    ),
  ),
};

/** A step that fails at once with this error. */
function failing(message: string, code: ConstructorParameters<typeof ModelError>[1]) {
  // biome-ignore lint/correctness/useYield: a model that fails before it says anything.
  return async function* (): AsyncGenerator<ModelEvent> {
    throw new ModelError(message, code);
  };
}

describe('while the model is retried', () => {
  it('announces a retry on a line of its own, then says it waits again, until text comes', async () => {
    const clock = manualClock();
    const gate = deferred();
    const model = stepModel(async function* () {
      yield BUSY;
      await gate.promise;
      yield { type: 'text-delta', text: 'Back.' };
      yield { type: 'finish', reason: 'stop' };
    });
    const { terminal, type } = startAgent({ model, clock, columns: 120 });
    await waitForPrompt(terminal);
    type('hello');
    await terminal.waitFor('attempt 2 of 3');
    clock.advance(1_000);
    await terminal.waitFor('Waiting for the model… 1 s');
    expect(fromPrompt(await terminal.text(), 'hello')).toBe(
      [
        '> hello',
        '↻ The model server at http://127.0.0.1:8080/v1 failed (HTTP 503: busy). Retrying in 2 s, attempt 2 of 3.',
        'Waiting for the model… 1 s · Ctrl+C cancels',
      ].join('\n'),
    );
    gate.resolve();
    await terminal.waitFor('Back.');
    expectTurn(await waitForPrompt(terminal), 'hello', [
      '↻ The model server at http://127.0.0.1:8080/v1 failed (HTTP 503: busy). Retrying in 2 s, attempt 2 of 3.',
      'Back.',
    ]);
  });
});

describe('error and status lines in a narrow terminal', () => {
  it('wrap at words, a wrapped line indented under the text of its first', async () => {
    const model = stepModel(async function* () {
      yield { ...BUSY, delayMs: 0 };
      throw new ModelError(
        'Cannot reach the model server at http://localhost:11434/v1 (connection refused). Check that it is running and that the base URL is right.',
        'MODEL_CONNECTION',
      );
    });
    const { terminal, type } = startAgent({ model, columns: 40 });
    await waitForPrompt(terminal);
    type('go');
    await terminal.waitFor('MODEL_CONNECTION');
    expectTurn(await waitForPrompt(terminal), 'go', [
      '↻ The model server at',
      '  http://127.0.0.1:8080/v1 failed (HTTP',
      '  503: busy). Retrying now, attempt 2',
      '  of 3.',
      '✖ Error: Cannot reach the model server',
      '  at http://localhost:11434/v1',
      '  (connection refused). Check that it',
      '  is running and that the base URL is',
      '  right. (MODEL_CONNECTION)',
      '  Send your message again to retry (the',
      '  conversation is kept), or press',
      '  Ctrl+D to quit.',
    ]);
  });

  it('keep their colours on every row they wrap to', async () => {
    const model = stepModel(
      failing(
        'The model server at http://localhost:11434/v1 failed (HTTP 500).',
        'MODEL_UNAVAILABLE',
      ),
    );
    const { terminal, type } = startAgent({
      model,
      columns: 40,
      env: { TERM: 'xterm-256color', FORCE_COLOR: '1' },
    });
    await waitForPrompt(terminal);
    type('go');
    await terminal.waitFor('MODEL_UNAVAILABLE');
    await waitForPrompt(terminal);
    const dim = (text: string) => `\u001b[2m${text}\u001b[22m`;
    expect(terminal.written).toContain(
      `\u001b[33m✖\u001b[39m \u001b[1mError\u001b[22m: The model server at\r\n  http://localhost:11434/v1 failed\r\n  (HTTP 500). (MODEL_UNAVAILABLE)\r\n`,
    );
    expect(terminal.written).toContain(
      [
        dim('  Send your message again to retry (the'),
        `  ${dim('conversation is kept), or press')}`,
        `  ${dim('Ctrl+D to quit.')}`,
      ].join('\r\n'),
    );
  });

  it('a long word is broken where it must be, the rest at spaces', async () => {
    const word = 'x'.repeat(70);
    const model = stepModel(failing(`Bad ${word}.`, 'MODEL_BAD_RESPONSE'));
    const { terminal, type } = startAgent({ model, columns: 40 });
    await waitForPrompt(terminal);
    type('go');
    await terminal.waitFor('MODEL_BAD_RESPONSE');
    const rows = fromPrompt(await waitForPrompt(terminal), 'go').split('\n');
    expect(rows.slice(1, 5)).toEqual([
      '✖ Error: Bad',
      `  ${'x'.repeat(37)}`,
      `  ${'x'.repeat(33)}.`,
      '  (MODEL_BAD_RESPONSE)',
    ]);
  });
});

describe('hints that name the command', () => {
  it('name it as the person started it', async () => {
    const model = stepModel(
      failing(
        'The model server at http://127.0.0.1:8080/v1 sent nothing for 20 s.',
        'MODEL_TIMEOUT',
      ),
      failing('The model server rejected the API key (HTTP 401).', 'MODEL_AUTH'),
    );
    const { terminal, type } = startAgent({
      model,
      columns: 200,
      command: programCommand('dsh-stdio-agent', { DSH_COMMAND: 'pnpm start --' }),
    });
    await waitForPrompt(terminal);
    type('first');
    await terminal.waitFor('MODEL_TIMEOUT');
    type('second');
    await terminal.waitFor('MODEL_AUTH');
    const screen = await waitForPrompt(terminal);
    expect(screen).toContain(
      '  Send your message again to retry (the conversation is kept), or give the server more time: pnpm start -- --request-timeout 60s, with your other flags.',
    );
    expect(screen).toContain(
      '  Check DEEPSEEK_API_KEY (or DSH_API_KEY for another server) and run pnpm start again.',
    );
    expect(screen).not.toContain('dsh-stdio-agent');
  });
});

describe('the exit status', () => {
  /** Runs the agent on pipes (or a terminal input with a piped output): the lines, then the end. */
  async function piped(lines: string, model = stepModel(), inputTerminal = false) {
    const input = Object.assign(new PassThrough(), { isTTY: inputTerminal });
    const output = new PassThrough();
    output.resume();
    const exit = runTerminalAgent({ model, input, output, errorOutput: output, env: TEST_ENV });
    input.end(lines);
    return exit;
  }

  it('is 1 on pipes when a turn failed, even if a later one finished', async () => {
    const model = stepModel(failing('Down.', 'MODEL_UNAVAILABLE'), textStep('Up again.'));
    expect(await piped('one\ntwo\n', model)).toBe(1);
  });

  it('is 1 when only the output is not a terminal', async () => {
    const model = stepModel(failing('Down.', 'MODEL_UNAVAILABLE'));
    expect(await piped('one\n', model, true)).toBe(1);
  });

  it('is 0 on pipes when every turn finished', async () => {
    expect(await piped('one\n', stepModel(textStep('Fine.')))).toBe(0);
  });

  it('is 0 on a terminal, where the person saw the error', async () => {
    const { terminal, exit, type } = startAgent({
      model: stepModel(failing('Down.', 'MODEL_UNAVAILABLE')),
    });
    await waitForPrompt(terminal);
    type('one');
    await terminal.waitFor('MODEL_UNAVAILABLE');
    await waitForPrompt(terminal);
    terminal.input.end();
    expect(await exit).toBe(0);
  });
});
