import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createUserInteraction, type UserInteractionProvider } from '../src/index.js';
import { createScriptedProvider } from '../src/testing.js';
import { choice } from './support/database-choice.js';

describe('registerProvider', () => {
  it('makes the provider active, and disposing removes it', () => {
    const interaction = createUserInteraction();
    expect(interaction.hasProvider).toBe(false);
    expect(interaction.capabilities).toBeUndefined();
    const dispose = interaction.registerProvider(createScriptedProvider());
    expect(interaction.hasProvider).toBe(true);
    expect(interaction.capabilities).toEqual({ freeForm: true, customAnswer: true });
    dispose();
    expect(interaction.hasProvider).toBe(false);
  });

  it('refuses a second provider without replacing the first', async () => {
    const interaction = createUserInteraction();
    const first = createScriptedProvider({ answers: [{ label: 'SQLite' }] });
    interaction.registerProvider(first);
    const second = createScriptedProvider({ answers: [{ label: 'PostgreSQL' }] });
    expect(() => interaction.registerProvider(second)).toThrow(
      expect.objectContaining({ code: 'DUPLICATE_PROVIDER' }),
    );
    await expect(interaction.ask(choice)).resolves.toMatchObject({ answer: 'SQLite' });
    expect(second.requests).toHaveLength(0);
  });

  it('dispose is idempotent, Disposable, and a stale one never removes a newer provider', async () => {
    const interaction = createUserInteraction();
    const old = interaction.registerProvider(createScriptedProvider());
    old();
    old();
    const newer = createScriptedProvider({ answers: [{ label: 'SQLite' }] });
    {
      using _registration = interaction.registerProvider(newer);
      old[Symbol.dispose]();
      old();
      expect(interaction.hasProvider).toBe(true);
      await expect(interaction.ask(choice)).resolves.toMatchObject({ answer: 'SQLite' });
    }
    expect(interaction.hasProvider).toBe(false);
    interaction.registerProvider(createScriptedProvider());
    expect(interaction.hasProvider).toBe(true);
  });

  it('disposes the registration when its signal aborts, and removes its listener', () => {
    const interaction = createUserInteraction();
    const scope = new AbortController();
    const dispose = interaction.registerProvider(createScriptedProvider(), {
      signal: scope.signal,
    });
    expect(getEventListeners(scope.signal, 'abort')).toHaveLength(1);
    scope.abort();
    expect(interaction.hasProvider).toBe(false);
    interaction.registerProvider(createScriptedProvider());
    dispose();
    expect(interaction.hasProvider).toBe(true);

    const other = new AbortController();
    const manual = createUserInteraction().registerProvider(createScriptedProvider(), {
      signal: other.signal,
    });
    manual();
    expect(getEventListeners(other.signal, 'abort')).toHaveLength(0);
  });

  it('does not register with a signal that already aborted', () => {
    const interaction = createUserInteraction();
    interaction.registerProvider(createScriptedProvider(), { signal: AbortSignal.abort() });
    expect(interaction.hasProvider).toBe(false);
  });

  it('refuses something that is not a provider', () => {
    const interaction = createUserInteraction();
    expect(() => interaction.registerProvider({} as UserInteractionProvider)).toThrow(TypeError);
  });

  it('reports the capabilities of the active provider', () => {
    const interaction = createUserInteraction();
    const capabilities = { freeForm: false, customAnswer: false };
    interaction.registerProvider(createScriptedProvider({ capabilities }));
    expect(interaction.capabilities).toEqual(capabilities);
  });
});
