import { describe, expect, it } from 'vitest';
import {
  type AskUserQuestionRequest,
  type AskUserQuestionsRequest,
  createUserInteraction,
  executeAskUserQuestion,
  validateQuestionsRequest,
  validateRequest,
} from '../src/index.js';
import { outcome } from './support/hostile-calls.js';

/** A service whose UI records each request it is shown, and answers with the first option. */
function recordingService() {
  const shown: unknown[] = [];
  const interaction = createUserInteraction();
  interaction.registerProvider({
    async ask(request) {
      shown.push(request);
      const option = request.options?.[0];
      return option === undefined ? { answer: 'typed' } : { answer: option.label, option };
    },
    async askAll(request) {
      shown.push(request);
      return {
        answers: request.questions.map(({ id }) => ({
          id,
          answers: ['typed'],
          options: [],
          custom: 'typed',
        })),
      };
    },
  });
  return { interaction, shown };
}

describe('a request this package checked and froze is not read and checked again', () => {
  it('ask() shows the UI the very request validateRequest returned', async () => {
    const { interaction, shown } = recordingService();
    const request = validateRequest({ question: 'Which?', options: [{ label: 'A' }] });
    await interaction.ask(request);
    expect(shown[0]).toBe(request);
  });

  it('askAll() shows the UI the very request validateQuestionsRequest returned', async () => {
    const { interaction, shown } = recordingService();
    const request = validateQuestionsRequest({
      questions: [
        { id: 'a', question: 'First?' },
        { id: 'b', question: 'Second?' },
      ],
    });
    await interaction.askAll(request);
    expect(shown[0]).toBe(request);
  });

  it('the tool asks with one request checked with the caller’s fields, which ask() takes as it is', async () => {
    const { interaction, shown } = recordingService();
    const asked: AskUserQuestionRequest[] = [];
    const agent = Object.freeze({ id: 'agent-1' });
    const signal = new AbortController().signal;
    const result = await executeAskUserQuestion(
      '{"question": "Which?", "options": [{"label": "A"}]}',
      {
        interaction: {
          ask(request) {
            asked.push(request);
            return interaction.ask(request);
          },
        },
        agent,
        signal,
      },
    );
    expect(result.ok).toBe(true);
    expect(Object.isFrozen(asked[0])).toBe(true);
    expect(asked[0]).toMatchObject({ question: 'Which?', agent, signal });
    expect(shown[0]).toBe(asked[0]);
  });

  it('a caller’s field that is wrong still fails the tool with INVALID_REQUEST, naming it', async () => {
    const result = await executeAskUserQuestion('{"question": "Which?"}', {
      interaction: createUserInteraction(),
      timeoutMs: -1,
    });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('INVALID_REQUEST');
      expect(result.error.message).toContain('timeoutMs');
    }
  });

  it('a frozen look-alike made elsewhere is read and checked like any request', async () => {
    const { interaction, shown } = recordingService();
    const blank = Object.freeze({ question: '\u200b', options: Object.freeze([]) });
    expect(await outcome(() => interaction.ask(blank as AskUserQuestionRequest))).toBe(
      'INVALID_REQUEST',
    );
    const fine = Object.freeze({ question: 'Which?' });
    await interaction.ask(fine);
    expect(shown[0]).not.toBe(fine);
    expect(shown[0]).toEqual(fine);
    const several = Object.freeze({
      questions: Object.freeze([Object.freeze({ id: 'a', question: 'First?', multiSelect: true })]),
    });
    expect(await outcome(() => interaction.askAll(several as AskUserQuestionsRequest))).toBe(
      'INVALID_REQUEST',
    );
  });
});
