import { createUserInteraction } from 'dsh-user-interaction';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../../src/loop/create-agent.js';
import { createScriptedModel } from '../../src/script/scripted-model.js';

describe('createAgent', () => {
  const model = createScriptedModel({ steps: [{ text: 'hi' }] });
  const interaction = createUserInteraction();
  const tool = {
    name: 'echo',
    description: 'Echoes.',
    parameters: { type: 'object' },
    execute: async () => ({ ok: true as const, output: '' }),
  };

  it('rejects options that cannot work', () => {
    expect(() => createAgent({ model, interaction, tools: [tool, tool] })).toThrow(
      'is given more than once',
    );
    expect(() =>
      createAgent({ model, interaction, tools: [{ ...tool, name: 'ask_user_question' }] }),
    ).toThrow('is built in');
    expect(() =>
      createAgent({ model, interaction, tools: [{ ...tool, name: 'has space' }] }),
    ).toThrow(TypeError);
    expect(() => createAgent({ model, interaction, maxSteps: 0 })).toThrow('maxSteps');
    expect(() => createAgent({ model, interaction, questionTimeoutMs: -1 })).toThrow(
      'questionTimeoutMs',
    );
    expect(() => createAgent({ model, interaction, id: ' ' })).toThrow('id');
    expect(() => createAgent({ model, interaction, instructions: 3 as never })).toThrow(
      'instructions',
    );
    expect(() => createAgent({ model: {} as never, interaction })).toThrow('model');
    expect(() => createAgent({ model, interaction: {} as never })).toThrow('interaction');
    const agent = createAgent({ model, interaction });
    expect(() => agent.run(42 as never)).toThrow(TypeError);
  });

  it('gives each agent its own id unless one is given', () => {
    const a = createAgent({ model, interaction });
    const b = createAgent({ model, interaction });
    expect(a.id).not.toBe(b.id);
    expect(a.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(createAgent({ model, interaction, id: 'session-7' }).id).toBe('session-7');
  });
});
