import { REQUEST_LIMITS } from 'dsh-user-interaction';

/** The longest answer text the contract allows, in UTF-16 code units. */
export const LONGEST_ANSWER = REQUEST_LIMITS.answerLength;

const LONGEST = LONGEST_ANSWER.toLocaleString('en');

/** Why a typed answer this long is refused, in both modes: it is never cut silently. */
export function answerTooLongMessage(length: number): string {
  return `This answer has ${length.toLocaleString('en')} characters; an answer holds at most ${LONGEST}.`;
}

/** What the editor says when text was left out (pasted) or refused (typed) at the limit. */
export function answerLimitMessage(pasted: boolean): string {
  return pasted
    ? `Paste cut: an answer holds at most ${LONGEST} characters.`
    : `An answer holds at most ${LONGEST} characters.`;
}
