import type {
  AskUserQuestionAnswer,
  AskUserQuestionRequest,
  AskUserQuestionsAnswer,
  AskUserQuestionsRequest,
  PermissionAnswer,
  PermissionRequest,
  UserInteractionProvider,
} from 'dsh-user-interaction';
import { isUserInteractionError } from 'dsh-user-interaction';
import type { ReadlineProvider } from '../question-ui/readline-provider.js';

/** What the terminal agent learns from the questions it passes to the question UI. */
export interface QuestionWatch {
  /** The person dismissed a question (Ctrl+C): the whole turn is to be cancelled. */
  onDismissed(): void;
  /** The question UI took the question of this tool call on screen (or into its queue). */
  onTaken(toolCallId: string): void;
  /** Which tool call asked (`toolCallIdOf` of `dsh-agent`). */
  toolCallIdOf(request: Pick<AskUserQuestionRequest, 'agent'>): string | undefined;
}

/**
 * The question UI as the agent's provider, seen by the terminal agent: a question the
 * person dismisses cancels the turn (Ctrl+C means "stop", wherever it is pressed), and the
 * agent learns which questions reached the screen, so that it can say so for the others.
 */
export function watchQuestions(
  provider: ReadlineProvider,
  watch: QuestionWatch,
): UserInteractionProvider {
  async function watched<Answer>(
    request: Pick<AskUserQuestionRequest, 'agent'>,
    show: () => Promise<Answer>,
  ): Promise<Answer> {
    const before = provider.pending;
    const answer = show();
    // A question the UI refuses at once (the input has ended) is never drawn.
    const toolCallId = watch.toolCallIdOf(request);
    if (provider.pending > before && toolCallId !== undefined) watch.onTaken(toolCallId);
    try {
      return await answer;
    } catch (error) {
      if (isUserInteractionError(error, 'ASK_CANCELLED')) watch.onDismissed();
      throw error;
    }
  }

  return {
    capabilities: provider.capabilities,
    ask: (request: AskUserQuestionRequest): Promise<AskUserQuestionAnswer> =>
      watched(request, () => provider.ask(request)),
    askAll: (request: AskUserQuestionsRequest): Promise<AskUserQuestionsAnswer> =>
      watched(request, () => provider.askAll(request)),
    requestPermission: (request: PermissionRequest): Promise<PermissionAnswer> =>
      watched(request, () => provider.requestPermission(request)),
  };
}
