import { describe, expect, it } from 'vitest';
import { type AskUserQuestionRequest, validateRequest } from '../src/index.js';
import { createScriptedProvider } from '../src/testing.js';
import { withProvider } from './support/hostile-calls.js';

describe('the UI is shown what was validated', () => {
  it('a caller changing its options after ask() changes neither the question shown nor the answer', async () => {
    const provider = createScriptedProvider();
    const interaction = withProvider(provider);
    const options = [{ label: 'Keep files' }, { label: 'Delete them' }];
    const held = provider.hold();
    const asking = interaction.ask({ question: 'What now?', options });
    const question = await held;
    (options[0] as { label: string }).label = '';
    options.push({ label: 'Keep files\u200d' });
    expect(question.request.options?.map((option) => option.label)).toEqual([
      'Keep files',
      'Delete them',
    ]);
    question.answer({ label: 'Keep files' });
    const answer = await asking;
    expect(answer).toEqual({ answer: 'Keep files', option: { label: 'Keep files' } });
  });

  it('reads each field once: a getter cannot swap in a huge or blank text after the check', async () => {
    const seen: AskUserQuestionRequest[] = [];
    const interaction = withProvider({
      async ask(request) {
        seen.push(request);
        return { answer: 'fine' };
      },
    });
    let questionReads = 0;
    let labelReads = 0;
    const request = {
      get question() {
        return questionReads++ === 0 ? 'Which name?' : 'x'.repeat(1_000_000);
      },
      options: [
        {
          get label() {
            return labelReads++ === 0 ? 'Fine' : ' ';
          },
        },
      ],
      allowCustom: true,
    };
    await interaction.ask(request);
    expect(seen[0]?.question).toBe('Which name?');
    expect(seen[0]?.options?.[0]?.label).toBe('Fine');
    expect(questionReads).toBe(1);
    expect(labelReads).toBe(1);
  });

  it('hands the UI a frozen request whose options are frozen too', async () => {
    const seen: AskUserQuestionRequest[] = [];
    const interaction = withProvider({
      async ask(request) {
        seen.push(request);
        return { answer: 'A', option: request.options?.[0] as never };
      },
    });
    await interaction.ask({ question: 'Q?', options: [{ label: 'A' }], agent: { id: 'me' } });
    const [request] = seen;
    expect(Object.isFrozen(request)).toBe(true);
    expect(Object.isFrozen(request?.options)).toBe(true);
    expect(Object.isFrozen(request?.options?.[0])).toBe(true);
    expect(Object.isFrozen(request?.agent)).toBe(true);
  });

  it('keeps a frozen agent as it is, and copies any other with its other fields', () => {
    const frozen = Object.freeze({ id: 'agent-1', toolCallId: 'call-1' });
    expect(validateRequest({ question: 'Q?', agent: frozen }).agent).toBe(frozen);
    const open = { id: 'agent-1', toolCallId: 'call-1' };
    const copied = validateRequest({ question: 'Q?', agent: open }).agent;
    expect(copied).toEqual(open);
    expect(copied).not.toBe(open);
    expect(Object.isFrozen(copied)).toBe(true);
    let reads = 0;
    const sly = Object.freeze({
      get id() {
        return reads++ === 0 ? 'agent-1' : '';
      },
    });
    const snapshot = validateRequest({ question: 'Q?', agent: sly }).agent;
    expect(snapshot?.id).toBe('agent-1');
    expect(snapshot?.id).toBe('agent-1');
    expect(reads).toBe(1);
  });

  it('validateRequest returns the snapshot it checked, not the object it was given', () => {
    let reads = 0;
    const request = {
      get question() {
        return reads++ === 0 ? 'Which?' : '';
      },
    };
    const valid = validateRequest(request);
    expect(valid.question).toBe('Which?');
    expect(valid.question).toBe('Which?');
    expect(reads).toBe(1);
  });

  it('still refuses inherited keys', () => {
    const polluted = Object.assign(Object.create({ colour: 'red' }), { question: 'Q?' });
    expect(() => validateRequest(polluted)).toThrow(
      expect.objectContaining({ code: 'INVALID_REQUEST', field: 'colour' }),
    );
  });
});
