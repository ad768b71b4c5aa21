import {
  type AskUserQuestionItem,
  type AskUserQuestionsRequest,
  acceptsCustomAnswer,
  hasOptions,
  REQUEST_LIMITS,
} from 'dsh-user-interaction';
import { choiceSchemaOptions, NOT_BLANK, recommendedChoice } from './choice-schema-options.js';
import { checkScope, type QuestionScope } from './question-scope.js';
import {
  CUSTOM_ANSWER_META,
  CUSTOM_ANSWER_SUFFIX,
  type CustomAnswerSchema,
  QUESTIONS_FORM_WORDING,
  type QuestionsElicitationRequest,
  type QuestionsFormProperty,
  type QuestionsFormSchema,
} from './questions-form.js';
import { withTimeLeft } from './time-limit-note.js';

/** The name of the typed-answer companion of question `id`. */
export function customAnswerField(id: string): string {
  return `${id}${CUSTOM_ANSWER_SUFFIX}`;
}

/** The title of a question's field: its header, with the question as the description. */
function titled(item: AskUserQuestionItem): { title: string; description?: string } {
  return item.header === undefined
    ? { title: item.question }
    : { title: item.header, description: item.question };
}

function companion(item: AskUserQuestionItem): CustomAnswerSchema {
  return {
    type: 'string',
    title: QUESTIONS_FORM_WORDING.customTitle,
    description:
      item.multiSelect === true
        ? QUESTIONS_FORM_WORDING.customNextToTicksDescription
        : QUESTIONS_FORM_WORDING.customDescription,
    maxLength: REQUEST_LIMITS.answerLength,
    _meta: { [CUSTOM_ANSWER_META]: { questionId: item.id, isCustomAnswer: true } },
  };
}

/**
 * The field of one question, and whether the form requires it. A single choice is required
 * only when it has a default (the recommended option): Zed preselects the first option of a
 * required single choice without one, so a person could submit a choice they never made.
 */
function questionField(item: AskUserQuestionItem): {
  field: QuestionsFormProperty;
  required: boolean;
} {
  if (!hasOptions(item)) {
    return {
      field: {
        type: 'string',
        ...titled(item),
        minLength: 1,
        maxLength: REQUEST_LIMITS.answerLength,
        pattern: NOT_BLANK,
      },
      required: true,
    };
  }
  const typed = acceptsCustomAnswer(item);
  const recommended = recommendedChoice(item);
  if (item.multiSelect === true) {
    return {
      field: {
        type: 'array',
        ...titled(item),
        items: { anyOf: choiceSchemaOptions(item.options) },
        ...(!typed && { minItems: 1 }),
        ...(recommended !== undefined && { default: [recommended] }),
      },
      required: !typed,
    };
  }
  return {
    field: {
      type: 'string',
      ...titled(item),
      oneOf: choiceSchemaOptions(item.options),
      ...(recommended !== undefined && { default: recommended }),
    },
    required: !typed && recommended !== undefined,
  };
}

/**
 * The flat form schema of several questions: a property per question named by its id (a
 * single choice, a multi-select, or a text), and next to options that also take typed text, a
 * `<id>:custom` text marked in `_meta` as that question's "Other".
 */
export function formSchemaForQuestions(request: AskUserQuestionsRequest): QuestionsFormSchema {
  const properties: [string, QuestionsFormProperty][] = [];
  const required: string[] = [];
  for (const item of request.questions) {
    const { field, required: needed } = questionField(item);
    properties.push([item.id, field]);
    if (needed) required.push(item.id);
    if (hasOptions(item) && acceptsCustomAnswer(item)) {
      properties.push([customAnswerField(item.id), companion(item)]);
    }
  }
  // `fromEntries` defines each name as data: an id such as `__proto__` stays a property.
  return {
    type: 'object',
    ...(request.header !== undefined && { title: request.header }),
    properties: Object.fromEntries(properties),
    required,
  };
}

/**
 * The `elicitation/create` params that show several questions as one form in the editor.
 * Expects a request the contract accepts (`validateQuestionsRequest`); throws `ASK_FAILED` for a
 * scope without a session id.
 */
export function elicitationForQuestions(
  request: AskUserQuestionsRequest,
  scope: QuestionScope,
): QuestionsElicitationRequest {
  const { sessionId, toolCallId } = checkScope(scope);
  const [first] = request.questions;
  const message =
    request.header ??
    (request.questions.length === 1 && first !== undefined
      ? first.question
      : QUESTIONS_FORM_WORDING.message(request.questions.length));
  const params: QuestionsElicitationRequest = {
    mode: 'form',
    sessionId,
    message: withTimeLeft(message, request.timeoutMs),
    requestedSchema: formSchemaForQuestions(request),
  };
  if (toolCallId !== undefined) params.toolCallId = toolCallId;
  return params;
}
