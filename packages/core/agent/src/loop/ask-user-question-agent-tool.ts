import {
  ASK_USER_QUESTION_PARAMETERS,
  ASK_USER_QUESTION_TOOL_NAME,
  describeAskUserQuestionTool,
  executeAskUserQuestion,
} from 'dsh-user-interaction';
import type { AgentTool } from './agent-tool.js';

/** The title UIs show for an `ask_user_question` call when its arguments carry no question. */
const UNTITLED_QUESTION = 'Question';

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
      const question = (args as { question?: unknown } | null | undefined)?.question;
      return typeof question === 'string' && question.trim() !== ''
        ? question.trim()
        : UNTITLED_QUESTION;
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
