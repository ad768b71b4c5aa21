import { EventEmitter } from 'node:events';
import { createScriptedModel, DEMO_SCRIPT } from 'dsh-agent';
import { deferred, stepModel, textStep, untilAborted } from 'dsh-agent/testing';
import { describe, expect, it } from 'vitest';
import { QUIT_HINT } from '../../src/terminal-agent/terminal-agent.js';
import { runTerminalAgent } from '../../src/terminal-agent.js';
import { createPipes, KEYS, TEST_ENV } from '../../src/testing.js';
import { lastLine, startAgent, waitForPrompt } from '../support/agent-harness.js';

const CANCELLED_NOTE = '⊘ Turn cancelled. Type your next message to go on.';

/** A step that streams some text, then waits on the network until the turn is cancelled. */
function stalledStep(text: string, seen: { signal?: AbortSignal }) {
  return async function* (request: { signal: AbortSignal }) {
    seen.signal = request.signal;
    yield { type: 'text-delta' as const, text };
    await untilAborted(request.signal);
  };
}

describe('Ctrl+C in the terminal agent', () => {
  it('right after a cancelled turn asks for a second Ctrl+C; typing a message disarms it', async () => {
    const { terminal, exit, type } = startAgent({
      model: stepModel(stalledStep('Working', {}), textStep('Fine.'), stalledStep('More', {})),
    });
    await waitForPrompt(terminal);
    type('work');
    await terminal.waitFor('Working');
    terminal.press(KEYS.ctrlC);
    await waitForPrompt(terminal);
    terminal.press(KEYS.ctrlC);
    await terminal.waitFor(QUIT_HINT);
    // A message sent in between: the next Ctrl+C at the prompt quits as usual.
    type('go on');
    await terminal.waitFor('Fine.');
    await waitForPrompt(terminal);
    terminal.press(KEYS.ctrlC);
    expect(await exit).toBe(0);
    expect((await terminal.text()).split(QUIT_HINT)).toHaveLength(2);
  });

  it('during a question cancels the turn, not the program; the conversation goes on', async () => {
    const { terminal, exit, type } = startAgent({
      model: createScriptedModel(DEMO_SCRIPT, { name: 'demo' }),
      columns: 120,
    });
    await waitForPrompt(terminal);
    type('hello');
    await terminal.waitFor('❯ 1. TypeScript');
    terminal.press(KEYS.ctrlC);
    const screen = await waitForPrompt(terminal);
    expect(screen.slice(screen.indexOf('✖ Language'))).toBe(
      ['✖ Language · cancelled', CANCELLED_NOTE, '', '> '].join('\n'),
    );
    expect(terminal.cursorHidden()).toBe(false);

    // The next turn picks up where the conversation was: the cancelled question, asked again.
    type('go on');
    await terminal.waitFor(/> go on\nHi! I am the dsh demo agent\.[\s\S]*❯ 1\. TypeScript/);
    terminal.press(KEYS.enter);
    await terminal.waitFor('Noted: TypeScript.');
    await terminal.waitFor('What should the project be called?');
    type('kept');
    await terminal.waitFor('Which database should kept use?');
    terminal.press(KEYS.ctrlC);
    await terminal.waitFor('✖ Database · cancelled');
    await waitForPrompt(terminal);
    // Right after a cancel, a reflex second Ctrl+C only says how to quit…
    terminal.press(KEYS.ctrlC);
    const hinted = await terminal.waitFor(`${QUIT_HINT}\n> `);
    expect(hinted.endsWith(['', '> ', QUIT_HINT, '> '].join('\n'))).toBe(true);
    // …and a third quits.
    terminal.press(KEYS.ctrlC);
    expect(await exit).toBe(0);
  });

  it('while the model streams cancels the turn and stops the request; the next turn works', async () => {
    const seen: { signal?: AbortSignal } = {};
    const model = stepModel(stalledStep('Thinking about it', seen), textStep('Back again.'));
    const { terminal, exit, type } = startAgent({ model });
    await waitForPrompt(terminal);
    type('think');
    await terminal.waitFor('Thinking about it');
    expect(await lastLine(terminal)).toBe('Thinking about it');
    terminal.press(KEYS.ctrlC);
    const screen = await waitForPrompt(terminal);
    expect(
      screen.endsWith(['> think', 'Thinking about it', CANCELLED_NOTE, '', '> '].join('\n')),
    ).toBe(true);
    expect(seen.signal?.aborted).toBe(true);

    type('again');
    await terminal.waitFor('Back again.');
    await waitForPrompt(terminal);
    // The cancelled turn's text is in the conversation the model sees next.
    expect(model.requests[1]?.messages.map((message) => message.content)).toContain(
      'Thinking about it',
    );
    terminal.press('\u0004');
    expect(await exit).toBe(0);
  });

  it('ignores other keys while the model streams: nothing is echoed into the text', async () => {
    const gate = deferred();
    const model = stepModel(async function* () {
      yield { type: 'text-delta', text: 'Part one, ' };
      await gate.promise;
      yield { type: 'text-delta', text: 'part two.' };
      yield { type: 'finish', reason: 'stop' };
    });
    const { terminal, type } = startAgent({ model });
    await waitForPrompt(terminal);
    type('go');
    await terminal.waitFor('Part one,');
    terminal.press(...'typed', KEYS.enter);
    await terminal.resize(90, 50);
    gate.resolve();
    const screen = await waitForPrompt(terminal);
    expect(screen.endsWith(['> go', 'Part one, part two.', '', '> '].join('\n'))).toBe(true);
    expect(model.requests).toHaveLength(1);
  });

  it('pressed again while the turn is being cancelled quits at once with status 130', async () => {
    const seen: { signal?: AbortSignal } = {};
    const { terminal, exit, type } = startAgent({
      model: stepModel(stalledStep('Working', seen)),
    });
    await waitForPrompt(terminal);
    type('work');
    await terminal.waitFor('Working');
    // Both in one chunk: the second arrives before the cancelled turn has ended.
    terminal.press(KEYS.ctrlC + KEYS.ctrlC);
    expect(await exit).toBe(130);
    expect(seen.signal?.aborted).toBe(true);
    const screen = await terminal.text();
    expect(screen.endsWith('Working\nInterrupted.')).toBe(true);
    expect(screen).not.toContain('Turn cancelled');
    expect(terminal.input.isRaw).toBe(false);
    expect(terminal.cursorHidden()).toBe(false);
  });

  it('at an empty prompt exits with status 0; on a typed line, clears it', async () => {
    const { terminal, exit } = startAgent({ model: stepModel() });
    await waitForPrompt(terminal);
    terminal.press(...'half a thought');
    await terminal.waitFor('> half a thought');
    terminal.press(KEYS.ctrlC);
    await waitForPrompt(terminal);
    expect(await terminal.text()).not.toContain('half a thought');
    terminal.press(KEYS.ctrlC);
    expect(await exit).toBe(0);
    expect(terminal.input.isRaw).toBe(false);
    expect(terminal.rawModes.at(-1)).toBe(false);
    // The status line, the prompt, then a fresh line for the shell.
    expect(await lastLine(terminal)).toBe('> ');
    expect(terminal.cursor()).toEqual({ x: 0, y: 2 });
  });

  it('Ctrl+D at an empty prompt exits with status 0 and leaves the cursor on a fresh line', async () => {
    const { terminal, exit } = startAgent({ model: stepModel() });
    await waitForPrompt(terminal);
    terminal.press('\u0004');
    expect(await exit).toBe(0);
    expect(await lastLine(terminal)).toBe('> ');
    expect(terminal.cursor()).toEqual({ x: 0, y: 2 });
    expect(terminal.input.isRaw).toBe(false);
  });
});

describe('SIGINT as a signal (Ctrl+C when the input is not a terminal)', () => {
  it('cancels the running turn, then quits at the prompt', async () => {
    const pipes = createPipes();
    const interrupts = new EventEmitter();
    const seen: { signal?: AbortSignal } = {};
    const exit = runTerminalAgent({
      model: stepModel(stalledStep('Streaming', seen)),
      input: pipes.input,
      output: pipes.output,
      errorOutput: pipes.output,
      env: TEST_ENV,
      interrupts,
    });
    pipes.input.write('hello\n');
    await pipes.waitFor('Streaming');
    interrupts.emit('SIGINT');
    await pipes.waitFor(`${CANCELLED_NOTE}\n\n> `);
    expect(seen.signal?.aborted).toBe(true);
    interrupts.emit('SIGINT');
    expect(await exit).toBe(0);
    expect(pipes.text()).toBe(['> hello', 'Streaming', CANCELLED_NOTE, '', '> ', ''].join('\n'));
    expect(interrupts.listenerCount('SIGINT')).toBe(0);
  });
});
