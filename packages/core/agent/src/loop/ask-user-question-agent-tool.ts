import {
  ASK_USER_QUESTION_PARAMETERS,
  ASK_USER_QUESTION_TOOL_NAME,
  describeAskUserQuestionTool,
  executeAskUserQuestion,
} from 'dsh-user-interaction';
import type { AgentTool } from './agent-tool.js';

/** The title UIs show for an `ask_user_question` call when its arguments carry no question. */
const UNTITLED_QUESTION = 'Question';

function isText(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/** The title of several questions: their header, else each question's header (or question). */
function setTitle(questions: readonly unknown[], header: unknown): string {
  if (isText(header)) return header.trim();
  const names = questions.map((item) => {
    const fields = (item ?? {}) as { header?: unknown; question?: unknown };
    if (isText(fields.header)) return fields.header.trim();
    return isText(fields.question) ? fields.question.trim() : UNTITLED_QUESTION;
  });
  return names.length === 0 ? UNTITLED_QUESTION : names.join(', ');
}

/**
 * The contract's `ask_user_question` tool as an agent tool: described for the active UI's
 * capabilities at every request, executed by the contract's `executeAskUserQuestion`.
 */
export function createAskUserQuestionAgentTool(options: { timeoutMs?: number } = {}): AgentTool {
  const { timeoutMs } = options;
  return {
    name: ASK_USER_QUESTION_TOOL_NAME,
    description: ({ capabilities }) => describeAskUserQuestionTool(capabilities),
    parameters: ASK_USER_QUESTION_PARAMETERS,
    title(args) {
      const { question, questions, header } =
        (args as { question?: unknown; questions?: unknown; header?: unknown } | null) ?? {};
      if (Array.isArray(questions)) return setTitle(questions, header);
      return isText(question) ? question.trim() : UNTITLED_QUESTION;
    },
    execute(args, context) {
      return executeAskUserQuestion(args, {
        interaction: context.interaction,
        agent: context.agent,
        signal: context.signal,
        ...(timeoutMs !== undefined && { timeoutMs }),
      });
    },
  };
}
