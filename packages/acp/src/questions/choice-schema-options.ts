import {
  type AskUserQuestionOption,
  type AskUserQuestionRequest,
  optionValue,
  recommendedOption,
} from 'dsh-user-interaction';
import type { ChoiceSchemaOption } from './question-form.js';

/** Any character that is not whitespace: editors that check patterns refuse a blank answer. */
export const NOT_BLANK = '\\S';

/** A question's options as the titled choices of a form field, in order. */
export function choiceSchemaOptions(
  options: readonly AskUserQuestionOption[] | undefined,
): ChoiceSchemaOption[] {
  return (options ?? []).map((option) => {
    const choice: ChoiceSchemaOption = { const: optionValue(option), title: option.label };
    if (option.description !== undefined) choice.description = option.description;
    return choice;
  });
}

/** The const of the question's recommended option, the form field's default; else `undefined`. */
export function recommendedChoice(
  question: Pick<AskUserQuestionRequest, 'options'>,
): string | undefined {
  const recommended = recommendedOption(question);
  return recommended === undefined ? undefined : optionValue(recommended);
}
