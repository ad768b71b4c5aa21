import { describe, expect, it } from 'vitest';
import { supportsFormElicitation } from '../../src/index.js';
import { questionCapabilitiesFor } from '../../src/questions/supports-form-elicitation.js';

describe('supportsFormElicitation', () => {
  it('is true only when elicitation.form is present and an object', () => {
    expect(supportsFormElicitation({ elicitation: { form: {} } })).toBe(true);
    expect(supportsFormElicitation({ elicitation: { form: { _meta: { x: 1 } } } })).toBe(true);
    expect(supportsFormElicitation({ elicitation: { form: {}, url: {} } })).toBe(true);
  });

  it.each([
    ['no capabilities', undefined],
    ['null capabilities', null],
    ['empty capabilities', {}],
    ['null elicitation', { elicitation: null }],
    ['empty elicitation', { elicitation: {} }],
    ['null form', { elicitation: { form: null } }],
    ['only url mode', { elicitation: { url: {} } }],
    ['form as true', { elicitation: { form: true } }],
    ['form as an array', { elicitation: { form: [] } }],
  ])('is false for %s', (_name, capabilities) => {
    expect(supportsFormElicitation(capabilities as never)).toBe(false);
  });
});

describe('questionCapabilitiesFor', () => {
  it('allows free-form and custom answers only with forms', () => {
    expect(questionCapabilitiesFor({ elicitation: { form: {} } })).toEqual({
      freeForm: true,
      customAnswer: true,
    });
    // Without forms, no questions at all: the model asks in its reply.
    expect(questionCapabilitiesFor({ elicitation: {} })).toEqual({
      freeForm: false,
      customAnswer: false,
      questions: false,
    });
    expect(questionCapabilitiesFor({ elicitation: {} }, { questionsAsPermissions: true })).toEqual({
      freeForm: false,
      customAnswer: false,
    });
  });
});
