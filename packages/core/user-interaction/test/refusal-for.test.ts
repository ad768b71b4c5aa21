import { describe, expect, it } from 'vitest';
import { FULL_CAPABILITIES, refusalFor, type UserInteractionCapabilities } from '../src/index.js';

const options = [{ label: 'A' }, { label: 'B' }];
const ONLY_CHOICES: UserInteractionCapabilities = { freeForm: false, customAnswer: false };
const EDITOR = { ui: 'this editor', because: 'it has no form elicitation' };

describe('refusalFor: what a UI refuses before it shows anything, in one wording', () => {
  it('refuses nothing a UI with every capability can show', () => {
    expect(refusalFor(FULL_CAPABILITIES, { question: 'Q?' })).toBeUndefined();
    expect(refusalFor(undefined, { question: 'Q?' })).toBeUndefined();
    expect(
      refusalFor(FULL_CAPABILITIES, {
        questions: [{ id: 'f', question: 'F?', options, multiSelect: true }],
      }),
    ).toBeUndefined();
  });

  it('tells the model to ask in its reply when the UI shows no questions, naming the UI', () => {
    const refused = refusalFor(
      { ...FULL_CAPABILITIES, questions: false },
      { question: 'Q?', options },
      EDITOR,
    );
    expect(refused).toMatchObject({ code: 'UNSUPPORTED' });
    expect(refused?.message).toBe(
      "This UI cannot show the question: this editor shows no questions at all (it has no form elicitation); ask the question in your reply text, end your turn, and take the person's next message as the answer.",
    );
    // The same phrase is never said twice.
    const bare = refusalFor({ ...FULL_CAPABILITIES, questions: false }, { question: 'Q?' });
    expect(bare?.message).toContain(
      'This UI cannot show the question: this UI shows no questions at all; ask',
    );
    expect(bare?.message.match(/cannot show/g)).toHaveLength(1);
  });

  it('refuses a free-form question to a UI of choices only, one question or one of several', () => {
    expect(refusalFor(ONLY_CHOICES, { question: 'Q?' }, EDITOR)?.message).toContain(
      'it has no options, and this editor shows only choices (it has no form elicitation); offer options to choose from',
    );
    expect(refusalFor(ONLY_CHOICES, { question: 'Q?', options })).toBeUndefined();
    const several = {
      questions: [
        { id: 'a', question: 'A?', options },
        { id: 'name', question: 'Name?' },
      ],
    };
    expect(refusalFor(ONLY_CHOICES, several)?.message).toContain(
      '`name` has no options, and this UI shows only choices; offer options to choose from',
    );
  });

  it('refuses several choices to a UI that shows one choice at a time', () => {
    const request = { questions: [{ id: 'f', question: 'F?', options, multiSelect: true }] };
    expect(
      refusalFor({ ...FULL_CAPABILITIES, multiSelect: false }, request, EDITOR)?.message,
    ).toContain(
      '`f` takes several choices, and this editor shows one choice at a time (it has no form elicitation); ask for one choice instead',
    );
  });
});
