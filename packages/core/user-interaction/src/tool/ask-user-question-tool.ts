import {
  ASK_USER_QUESTION_TOOL_DESCRIPTION,
  describeAskUserQuestionTool,
} from './ask-user-question-description.js';
import { ASK_USER_QUESTION_PARAMETERS } from './ask-user-question-schema.js';
import { executeAskUserQuestion } from './execute-ask-user-question.js';
import { parseAskUserQuestionArguments } from './parse-ask-user-question-arguments.js';

/** The tool's name, as the model calls it. */
export const ASK_USER_QUESTION_TOOL_NAME = 'ask_user_question';

/** The `ask_user_question` tool in one object: name, description, schema, parser, executor. */
export const askUserQuestionTool = {
  name: ASK_USER_QUESTION_TOOL_NAME,
  description: ASK_USER_QUESTION_TOOL_DESCRIPTION,
  describe: describeAskUserQuestionTool,
  parameters: ASK_USER_QUESTION_PARAMETERS,
  parse: parseAskUserQuestionArguments,
  execute: executeAskUserQuestion,
} as const;
