import { createUserInteraction } from 'dsh-user-interaction';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAgent } from '../../src/loop/create-agent.js';
import { controlledModel } from '../../src/testing.js';
import { collect, scriptedAgent, textOf } from '../support/harness.js';

// `RunOptions.controller`: a caller with one controller per turn hands it over, and the turn
// makes none of its own (issue 36: one AbortController per turn, no child of the same scope).

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a turn on the caller’s controller', () => {
  it('makes no controller of its own, and aborts the one it was given when it ends', async () => {
    const { agent, model } = scriptedAgent({ steps: [{ text: 'Hi.' }] });
    let made = 0;
    const Original = globalThis.AbortController;
    vi.stubGlobal(
      'AbortController',
      class extends Original {
        constructor() {
          super();
          made++;
        }
      },
    );
    const controller = new Original();
    const events = await collect(agent.run('hello', { controller }));
    expect(textOf(events)).toBe('Hi.');
    expect(made).toBe(0);
    expect(model.requests[0]?.signal).toBe(controller.signal);
    expect(controller.signal.aborted).toBe(true);
  });

  it('aborting it cancels the turn, and so does the signal given beside it', async () => {
    const control = controlledModel();
    const agent = createAgent({ model: control.model, interaction: createUserInteraction() });
    const controller = new AbortController();
    const turn = collect(agent.run('hi', { controller }));
    await control.request(0);
    controller.abort('stop');
    expect((await turn).at(-1)).toEqual({ type: 'turn-end', reason: 'cancelled' });

    const outer = new AbortController();
    const second = new AbortController();
    const next = collect(agent.run('again', { controller: second, signal: outer.signal }));
    const request = await control.request(1);
    outer.abort('stop');
    expect((await next).at(-1)).toEqual({ type: 'turn-end', reason: 'cancelled' });
    expect(request.signal).toBe(second.signal);
    expect(second.signal.reason).toBe('stop');
  });
});
