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

/**
 * A service whose UI records what each of its methods is shown, and answers with the first
 * option (or a typed answer), and each of several questions with a typed answer.
 */
function recordingService() {
  const shown: { method: 'ask' | 'askAll'; request: unknown }[] = [];
  const interaction = createUserInteraction();
  interaction.registerProvider({
    async ask(request) {
      shown.push({ method: 'ask', request });
      const option = request.options?.[0];
      return option === undefined ? { answer: 'typed' } : { answer: option.label, option };
    },
    async askAll(request) {
      shown.push({ method: 'askAll', request });
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
    expect(shown[0]?.request).toBe(request);
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
    expect(shown[0]?.request).toBe(request);
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
    expect(shown[0]?.request).toBe(asked[0]);
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
    expect(shown[0]?.request).not.toBe(fine);
    expect(shown[0]?.request).toEqual(fine);
    const several = Object.freeze({
      questions: Object.freeze([Object.freeze({ id: 'a', question: 'First?', multiSelect: true })]),
    });
    expect(await outcome(() => interaction.askAll(several as AskUserQuestionsRequest))).toBe(
      'INVALID_REQUEST',
    );
  });
});

describe('a checked request of one kind is not taken as checked for the other', () => {
  it('ask() refuses a request validateQuestionsRequest returned, and shows the UI nothing', async () => {
    const { interaction, shown } = recordingService();
    const several = validateQuestionsRequest({ questions: [{ id: 'a', question: 'First?' }] });
    expect(await outcome(() => interaction.ask(several as unknown as AskUserQuestionRequest))).toBe(
      'INVALID_REQUEST',
    );
    expect(shown).toEqual([]);
  });

  it('askAll() refuses a request validateRequest returned, and shows the UI nothing', async () => {
    const { interaction, shown } = recordingService();
    const one = validateRequest({ question: 'Which?' });
    expect(await outcome(() => interaction.askAll(one as unknown as AskUserQuestionsRequest))).toBe(
      'INVALID_REQUEST',
    );
    expect(shown).toEqual([]);
  });
});

describe('what held: look-alikes of a checked request are read and checked again', () => {
  it('a Proxy around a checked request, or an object inheriting from one, is read anew', async () => {
    const { interaction, shown } = recordingService();
    const checked = validateRequest({ question: 'Which?' });
    let reads = 0;
    const proxy = new Proxy(checked, {
      get(target, key, receiver) {
        reads++;
        return key === 'question' ? '\u200b' : Reflect.get(target, key, receiver);
      },
    });
    expect(await outcome(() => interaction.ask(proxy))).toBe('INVALID_REQUEST');
    expect(reads).toBeGreaterThan(0);
    const heir = Object.create(checked) as AskUserQuestionRequest;
    await interaction.ask(heir);
    expect(shown[0]?.request).not.toBe(heir);
    expect(shown[0]?.request).toEqual({ question: 'Which?' });
  });

  it('a checked request whose signal has aborted since is withdrawn before any UI sees it', async () => {
    const { interaction, shown } = recordingService();
    const controller = new AbortController();
    const checked = validateRequest({ question: 'Which?', signal: controller.signal });
    controller.abort();
    expect(await outcome(() => interaction.ask(checked))).toBe('ASK_ABORTED');
    expect(shown).toEqual([]);
  });
});

describe('the tool reads each field of its context once', () => {
  it('agent, signal and timeoutMs: one read each, and the question is asked with what was read', async () => {
    const { interaction, shown } = recordingService();
    const reads: Record<string, number> = {};
    const values: Record<string, unknown> = {
      agent: Object.freeze({ id: 'agent-1' }),
      signal: new AbortController().signal,
      timeoutMs: 60_000,
    };
    const context = { interaction } as Record<string, unknown>;
    for (const key of Object.keys(values)) {
      Object.defineProperty(context, key, {
        get() {
          reads[key] = (reads[key] ?? 0) + 1;
          // A second read sees nothing: what was checked must be what is asked.
          return reads[key] === 1 ? values[key] : undefined;
        },
      });
    }
    const result = await executeAskUserQuestion(
      '{"question": "Which?"}',
      context as unknown as Parameters<typeof executeAskUserQuestion>[1],
    );
    expect(result.ok).toBe(true);
    expect(reads).toEqual({ agent: 1, signal: 1, timeoutMs: 1 });
    expect(shown[0]?.request).toMatchObject({ agent: values.agent, timeoutMs: 60_000 });
  });
});

describe('a frozen agent is kept as it is only when nothing of it can change', () => {
  it('a frozen agent with a getter, or whose prototype can change, is copied, each field read once', () => {
    let reads = 0;
    const sly = Object.freeze({
      id: 'agent-1',
      get toolCallId() {
        reads++;
        return `call-${reads}`;
      },
    });
    const agent = validateRequest({ question: 'Q?', agent: sly }).agent as unknown as {
      toolCallId: string;
    };
    expect([agent.toolCallId, agent.toolCallId, reads]).toEqual(['call-1', 'call-1', 1]);
    expect(agent === (sly as unknown)).toBe(false);
    // Frozen itself, but what it inherits is not: a UI routing on toolCallId would see it change.
    const parent: { toolCallId?: string } = {};
    const heir = Object.freeze(
      Object.create(parent, { id: { value: 'agent-2', enumerable: true } }),
    );
    const kept = validateRequest({ question: 'Q?', agent: heir }).agent as { toolCallId?: string };
    parent.toolCallId = 'call-later';
    expect(kept.toolCallId).toBeUndefined();
  });
});

describe('what held: the model cannot set the caller’s fields', () => {
  it('agent, signal or timeoutMs in the model’s arguments is INVALID_REQUEST, and nothing is shown', async () => {
    const { interaction, shown } = recordingService();
    for (const extra of ['"agent": {"id": "other-session"}', '"timeoutMs": 1', '"signal": {}']) {
      const result = await executeAskUserQuestion(`{"question": "Which?", ${extra}}`, {
        interaction,
        agent: Object.freeze({ id: 'session-1' }),
      });
      expect([extra, result.ok ? 'ok' : result.error.code]).toEqual([extra, 'INVALID_REQUEST']);
    }
    expect(shown).toEqual([]);
  });
});
