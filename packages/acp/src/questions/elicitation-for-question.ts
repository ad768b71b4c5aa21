import {
  type AskUserQuestionRequest,
  acceptsCustomAnswer,
  hasOptions,
  REQUEST_LIMITS,
} from 'dsh-user-interaction';
import { choiceSchemaOptions, NOT_BLANK, recommendedChoice } from './choice-schema-options.js';
import {
  type ChoiceFieldSchema,
  QUESTION_FORM_WORDING,
  type QuestionElicitationRequest,
  type QuestionFormField,
  type QuestionFormSchema,
  type TextFieldSchema,
} from './question-form.js';
import { checkScope, type QuestionScope } from './question-scope.js';
import { withTimeLeft } from './time-limit-note.js';

function choiceField(request: AskUserQuestionRequest): ChoiceFieldSchema | undefined {
  if (!hasOptions(request)) return undefined;
  const field: ChoiceFieldSchema = {
    type: 'string',
    title: QUESTION_FORM_WORDING.choiceTitle,
    oneOf: choiceSchemaOptions(request.options),
  };
  const recommended = recommendedChoice(request);
  if (recommended !== undefined) field.default = recommended;
  return field;
}

function textField(request: AskUserQuestionRequest): TextFieldSchema | undefined {
  if (!acceptsCustomAnswer(request)) return undefined;
  if (!hasOptions(request)) {
    return {
      type: 'string',
      title: QUESTION_FORM_WORDING.freeFormTitle,
      minLength: 1,
      maxLength: REQUEST_LIMITS.answerLength,
      pattern: NOT_BLANK,
    };
  }
  return {
    type: 'string',
    title: QUESTION_FORM_WORDING.customTitle,
    description: QUESTION_FORM_WORDING.customDescription,
    maxLength: REQUEST_LIMITS.answerLength,
  };
}

/** The flat form schema of a question (see `QUESTION_FORM_FIELDS` for its property names). */
export function formSchemaForQuestion(request: AskUserQuestionRequest): QuestionFormSchema {
  const choice = choiceField(request);
  const text = textField(request);
  const schema: QuestionFormSchema = { type: 'object', properties: {}, required: [] };
  if (request.header !== undefined) schema.title = request.header;
  const required: QuestionFormField[] = [];
  if (choice !== undefined) {
    schema.properties.choice = choice;
    // With a custom answer allowed, a person who types needs not pick a choice too. Without a
    // default, a required choice is one Zed preselects (its first option): a person who submits
    // without looking would send a choice they never made. Left unrequired, it shows empty, and
    // a form sent without it is INVALID_ANSWER: loud rather than wrong, as for several questions.
    if (text === undefined && choice.default !== undefined) required.push('choice');
  }
  if (text !== undefined) {
    schema.properties.text = text;
    if (choice === undefined) required.push('text');
  }
  schema.required = required;
  return schema;
}

/**
 * The `elicitation/create` params that show a question as a form in the editor. Expects a
 * request the contract accepts (`validateRequest`); throws `ASK_FAILED` for a scope without
 * a session id.
 */
export function elicitationForQuestion(
  request: AskUserQuestionRequest,
  scope: QuestionScope,
): QuestionElicitationRequest {
  const { sessionId, toolCallId } = checkScope(scope);
  const params: QuestionElicitationRequest = {
    mode: 'form',
    sessionId,
    message: withTimeLeft(request.question, request.timeoutMs),
    requestedSchema: formSchemaForQuestion(request),
  };
  if (toolCallId !== undefined) params.toolCallId = toolCallId;
  return params;
}
