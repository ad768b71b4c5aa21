import { describe, expect, it } from 'vitest';
import * as inTurn from '../src/in-turn.js';
import * as root from '../src/index.js';
import * as testing from '../src/testing.js';

// What a harness author can import is a promise we keep: a name added here is a decision (the
// README documents it), not a side effect of exporting a helper for another file.
describe('the public surface', () => {
  it('the root exports what the README documents, and nothing else', () => {
    expect(Object.keys(root).sort()).toEqual([
      'ASK_USER_QUESTION_PARAMETERS',
      'ASK_USER_QUESTION_TOOL_NAME',
      'FULL_CAPABILITIES',
      'HarnessError',
      'INTERNAL_ERROR_CODE',
      'PERMISSION_CHOICES',
      'PERMISSION_KINDS',
      'PendingQuestions',
      'REQUEST_LIMITS',
      'USER_INTERACTION_ERROR_CODES',
      'UserInteractionError',
      'acceptsCustomAnswer',
      'answerForItem',
      'answerForOption',
      'askCancelledError',
      'askDeclinedError',
      'askFailedError',
      'askUserQuestionTool',
      'createUserInteraction',
      'describeAskUserQuestionTool',
      'executeAskUserQuestion',
      'hasOptions',
      'inputClosedError',
      'invalidAnswerError',
      'invalidRequestError',
      'isBlankText',
      'isHarnessError',
      'isUserInteractionError',
      'isUserInteractionErrorCode',
      'offeredChoices',
      'optionValue',
      'parseAskUserQuestionArguments',
      'recommendedOption',
      'refusalFor',
      'toToolError',
      'unsupportedError',
      'validateAnswer',
      'validateAnswers',
      'validateQuestionsRequest',
      'validateRequest',
    ]);
  });

  it('stays small enough to read in a minute', () => {
    expect(Object.keys(root).length).toBeLessThanOrEqual(40);
  });

  it('the testing subpath holds the scripted provider', () => {
    expect(Object.keys(testing).sort()).toEqual(['createScriptedProvider']);
  });

  it('the in-turn subpath holds the rule for asking a set one question at a time', () => {
    expect(Object.keys(inTurn).sort()).toEqual(['askEachInTurn']);
  });
});
