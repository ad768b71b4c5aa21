import {
  type AskUserQuestionRequest,
  isUserInteractionError,
  type UserInteractionProvider,
} from 'dsh-user-interaction';
import type { ReadlineProvider } from '../question-ui/readline-provider.js';
import type { WaitingItem } from './notify/waiting-notifier.js';

/** What the terminal agent learns from the questions it passes to the question UI. */
export interface QuestionWatch {
  /** The person dismissed a question (Ctrl+C): the whole turn is to be cancelled. */
  onDismissed(): void;
  /** The question UI took the question of this tool call on screen (or into its queue). */
  onTaken(toolCallId: string): void;
  /** Something waits for the person from now on (the notifier); returns the end of the wait. */
  onWaiting?(item: WaitingItem): () => void;
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
    item: WaitingItem,
    show: () => Promise<Answer>,
  ): Promise<Answer> {
    const before = provider.pending;
    const answer = show();
    const waited = provider.pending > before ? watch.onWaiting?.(item) : undefined;
    // A question the UI refuses at once (the input has ended) is never drawn.
    const toolCallId = watch.toolCallIdOf(request);
    if (provider.pending > before && toolCallId !== undefined) watch.onTaken(toolCallId);
    try {
      return await answer;
    } catch (error) {
      if (isUserInteractionError(error, 'ASK_CANCELLED')) watch.onDismissed();
      throw error;
    } finally {
      waited?.();
    }
  }

  return {
    capabilities: provider.capabilities,
    ask: (request) =>
      watched(request, { kind: 'question', text: request.question }, () => provider.ask(request)),
    askAll: (request) =>
      watched(
        request,
        { kind: 'question', text: request.header ?? request.questions[0]?.question ?? '' },
        () => provider.askAll(request),
      ),
    requestPermission: (request) =>
      watched(request, { kind: 'approval', text: request.command?.command ?? request.title }, () =>
        provider.requestPermission(request),
      ),
  };
}
