import { timeLimitSentence } from 'dsh-user-interaction/provider';
import { formatDuration } from 'dsh-user-interaction/text';

/**
 * A form's message with the time left to answer it, when the question has a time limit (the
 * form is sent as the limit starts), and what happens then (the contract's time-limit
 * sentence); the message itself otherwise.
 */
export function withTimeLeft(message: string, timeoutMs: number | undefined): string {
  if (timeoutMs === undefined) return message;
  return `${message}\n\n(${timeLimitSentence(formatDuration(timeoutMs))}.)`;
}
