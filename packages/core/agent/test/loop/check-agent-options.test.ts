import { createUserInteraction } from 'dsh-user-interaction';
import { describe, expect, it } from 'vitest';
import { checkAgentOptions, createAgent, createScriptedModel } from '../../src/index.js';

// checkAgentOptions is createAgent's own check, for a program that makes one agent per
// session: for every option createAgent refuses, it throws the same error, without an agent.

const model = createScriptedModel({ steps: [{ text: 'hi' }] });
const tool = {
  name: 'echo',
  description: 'Echoes.',
  parameters: { type: 'object' },
  execute: async () => ({ ok: true as const, output: '' }),
};

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('checkAgentOptions', () => {
  it.each([
    ['no model', { model: undefined as never }],
    ['a model without stream', { model: {} as never }],
    ['a tool given twice', { model, tools: [tool, tool] }],
    [
      'a tool named as the built-in one',
      { model, tools: [{ ...tool, name: 'ask_user_question' }] },
    ],
    ['a tool name with a space', { model, tools: [{ ...tool, name: 'has space' }] }],
    ['a tool without execute', { model, tools: [{ ...tool, execute: undefined as never }] }],
    ['maxSteps 0', { model, maxSteps: 0 }],
    ['a negative questionTimeoutMs', { model, questionTimeoutMs: -1 }],
    ['instructions that are not text', { model, instructions: 3 as never }],
    ['a recorder without flush', { model, recorder: { add: () => {} } as never }],
    ['permissions without decide', { model, permissions: {} as never }],
    ['a conversation that is not a list', { model, conversation: 'hi' as never }],
  ])('throws what createAgent throws for %s', (_name, options) => {
    const fromCheck = thrown(() => checkAgentOptions(options));
    const fromAgent = thrown(() =>
      createAgent({ ...options, interaction: createUserInteraction() }),
    );
    expect(fromCheck).toBeInstanceOf(TypeError);
    expect(fromAgent).toBeInstanceOf(TypeError);
    expect((fromCheck as Error).message).toBe((fromAgent as Error).message);
  });

  it('accepts what createAgent accepts, without asking the model anything', () => {
    let streams = 0;
    const counted = {
      ...model,
      stream: (...args: Parameters<typeof model.stream>) => {
        streams++;
        return model.stream(...args);
      },
    };
    expect(() =>
      checkAgentOptions({ model: counted, tools: [tool], maxSteps: 3, instructions: '' }),
    ).not.toThrow();
    expect(streams).toBe(0);
  });
});
