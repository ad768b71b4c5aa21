import type {
  AskUserQuestionAnswer,
  AskUserQuestionOption,
  AskUserQuestionRequest,
} from './ask-user-question.js';
import type { AskUserQuestionItem, AskUserQuestionItemAnswer } from './ask-user-questions.js';

/** True when the question has options to choose from. */
export function hasOptions(
  request: Pick<AskUserQuestionRequest, 'options'>,
): request is { readonly options: readonly AskUserQuestionOption[] } {
  return request.options !== undefined && request.options.length > 0;
}

/**
 * True when the person may answer with their own text: unless the question sets
 * `allowCustom: false` (the seed's default is `true`), and always when it has no options at
 * all (a free-form question has nothing to constrain it to).
 */
export function acceptsCustomAnswer(
  request: Pick<AskUserQuestionRequest, 'options' | 'allowCustom'>,
): boolean {
  return request.allowCustom !== false || !hasOptions(request);
}

/** The model-facing text of an option: its value, else its label. */
export function optionValue(option: AskUserQuestionOption): string {
  return option.value ?? option.label;
}

/** The answer for a chosen option. */
export function answerForOption(option: AskUserQuestionOption): AskUserQuestionAnswer {
  return { answer: optionValue(option), option };
}

/** The recommended option, if the question has one. */
export function recommendedOption(
  request: Pick<AskUserQuestionRequest, 'options'>,
): AskUserQuestionOption | undefined {
  return request.options?.find((option) => option.recommended === true);
}

/**
 * The answer to one question of several, for UIs: `answers` holds the chosen options' values
 * (else labels) in option order, then the typed text. `options` must be the question's own.
 */
export function answerForItem(
  item: AskUserQuestionItem,
  options: readonly AskUserQuestionOption[],
  custom?: string,
): AskUserQuestionItemAnswer {
  let ordered = options;
  if (options.length > 1) {
    const chosen = new Set(options);
    ordered = (item.options ?? []).filter((option) => chosen.has(option));
  }
  const answers = ordered.map(optionValue);
  if (custom !== undefined) answers.push(custom);
  return custom === undefined
    ? { id: item.id, answers, options: ordered }
    : { id: item.id, answers, options: ordered, custom };
}
