import { ModelError } from 'dsh-agent';
import { deferred, stepModel, textStep } from 'dsh-agent/testing';
import { describe, expect, it } from 'vitest';
import { runTerminalAgent } from '../../src/terminal-agent.js';
import { createFakeTerminal } from '../../src/testing.js';
import {
  expectTurn,
  lastLine,
  startAgent,
  startPipedAgent,
  waitForPrompt,
} from '../support/agent-harness.js';

describe('runTerminalAgent', () => {
  it('rejects invalid options before it touches the terminal', async () => {
    const terminal = createFakeTerminal();
    await expect(
      runTerminalAgent({
        model: stepModel(),
        input: terminal.input,
        output: terminal.output,
        errorOutput: terminal.output,
        questionTimeoutMs: 0,
      }),
    ).rejects.toThrow(TypeError);
    expect(terminal.written).toBe('');
    expect(terminal.rawModes).toEqual([]);
    expect(terminal.input.listenerCount('data')).toBe(0);
    terminal.dispose();
  });
});

describe('how a turn is shown', () => {
  it('streams the text as it arrives, on as many lines as it has', async () => {
    const gate = deferred();
    const model = stepModel(async function* () {
      yield { type: 'text-delta', text: 'First line,' };
      await gate.promise;
      yield { type: 'text-delta', text: ' still first.\r' };
      yield { type: 'text-delta', text: '\nSecond line:\n\tindented\u2028third\r\n' };
      yield { type: 'finish', reason: 'stop' };
    });
    const { terminal, type } = startAgent({ model });
    await waitForPrompt(terminal);
    type('write');
    await terminal.waitFor('First line,');
    // Shown before the model has finished its step.
    expect(await lastLine(terminal)).toBe('First line,');
    gate.resolve();
    const screen = await waitForPrompt(terminal);
    expectTurn(screen, 'write', [
      'First line, still first.',
      'Second line:',
      '    indented',
      'third',
    ]);
  });

  it('wraps long text at spaces, moving a word that grows past the edge to the next row', async () => {
    const model = stepModel(
      textStep('alpha beta gamma de', 'lta epsilon ', 'abcdefghijklmnopqrstuvwxyz end'),
    );
    const { terminal, type } = startAgent({ model, columns: 20 });
    await waitForPrompt(terminal);
    type('wrap');
    await terminal.waitFor('end');
    const screen = await waitForPrompt(terminal);
    // "de" fitted, "del" did not: it moved down whole; a word wider than a row is broken.
    expectTurn(screen, 'wrap', [
      'alpha beta gamma ',
      'delta epsilon ',
      'abcdefghijklmnopqrst',
      'uvwxyz end',
    ]);
  });

  it('shows escape sequences and control characters written by the model inert', async () => {
    const model = stepModel(
      textStep(
        '\u001b[2J\u001b[H',
        'Cleared? ',
        '\u001b]0;pwned\u0007',
        '\u001b[31mred\u001b[0m \u202edesrever\u202c',
      ),
    );
    const { terminal, type } = startAgent({ model, modelDescription: 'test model' });
    await waitForPrompt(terminal);
    type('attack');
    const screen = await waitForPrompt(terminal);
    // Nothing was cleared: the status line is still at the top.
    expect(screen.startsWith('Model: test model\n')).toBe(true);
    expectTurn(screen, 'attack', [
      '^[[2J^[[HCleared? ^[]0;pwned^G^[[31mred^[[0m <U+202E>desrever<U+202C>',
    ]);
    expect(terminal.written).not.toContain('\u001b]0;');
    expect(terminal.written).not.toContain('\u001b[2J');
  });

  it('reports a model error with its code and what to do, and the next turn works', async () => {
    const model = stepModel(
      // biome-ignore lint/correctness/useYield: a model that fails before it says anything.
      async function* () {
        throw new ModelError(
          'The model server at https://api.deepseek.com rejected the API key (HTTP 401).',
          'MODEL_AUTH',
          { status: 401 },
        );
      },
      textStep('Working now.'),
    );
    const { terminal, type } = startAgent({ model, columns: 120 });
    await waitForPrompt(terminal);
    type('first');
    await terminal.waitFor('MODEL_AUTH');
    expectTurn(await waitForPrompt(terminal), 'first', [
      '✖ Error: The model server at https://api.deepseek.com rejected the API key (HTTP 401). (MODEL_AUTH)',
      '  Check DEEPSEEK_API_KEY (or DSH_API_KEY for another server) and run dsh-stdio-agent again.',
    ]);
    type('second');
    await terminal.waitFor('Working now.');
    expectTurn(await waitForPrompt(terminal), 'second', ['Working now.']);
  });

  it('reports a connection failure mid-text on a line of its own, with how to retry', async () => {
    const model = stepModel(async function* () {
      yield { type: 'text-delta', text: 'Half a sen' };
      throw new ModelError(
        'The connection to http://localhost:11434/v1 broke.',
        'MODEL_CONNECTION',
      );
    });
    const { terminal, type } = startAgent({ model, columns: 120 });
    await waitForPrompt(terminal);
    type('go');
    await terminal.waitFor('MODEL_CONNECTION');
    expectTurn(await waitForPrompt(terminal), 'go', [
      'Half a sen',
      '✖ Error: The connection to http://localhost:11434/v1 broke. (MODEL_CONNECTION)',
      '  Send your message again to retry (the conversation is kept), or press Ctrl+D to quit.',
    ]);
  });

  it('on piped input names no key to quit: a pipe cannot press Ctrl+D', async () => {
    const model = stepModel(async function* () {
      yield { type: 'text-delta', text: 'Half' };
      throw new ModelError('The connection broke.', 'MODEL_CONNECTION');
    });
    const { pipes, exit } = startPipedAgent({ model });
    pipes.input.end('go\n');
    expect(await exit).toBe(1);
    expect(pipes.text()).toContain(
      '  Send your message again to retry (the conversation is kept).\n',
    );
    expect(pipes.text()).not.toContain('Ctrl+D');
  });

  it('stops a model that loops at the step limit, and says so', async () => {
    let calls = 0;
    const model = {
      id: 'looping',
      async *stream() {
        calls++;
        yield {
          type: 'tool-call' as const,
          call: { id: `c${calls}`, name: 'noop', arguments: '{}' },
        };
        yield { type: 'finish' as const, reason: 'tool-calls' as const };
      },
    };
    const { terminal, type } = startAgent({ model, columns: 160, rows: 40 });
    await waitForPrompt(terminal);
    type('loop');
    await terminal.waitFor('STEP_LIMIT');
    const screen = await waitForPrompt(terminal);
    expect(calls).toBe(25);
    expect(screen).toContain(
      '✖ Stopped: The model used all 25 steps of this turn without finishing, so the turn was stopped. Send a message to let it continue. (STEP_LIMIT)\n\n> ',
    );
    expect(screen).toMatch(
      /✖ noop · failed: There is no tool named "noop"\. The tools you can call are: ask_user_question\. \(UNKNOWN_TOOL\)/,
    );
  });
});
