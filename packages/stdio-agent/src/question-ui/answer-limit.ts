import { REQUEST_LIMITS } from 'dsh-user-interaction/provider';

/** The longest answer text the contract allows, in UTF-16 code units. */
export const LONGEST_ANSWER = REQUEST_LIMITS.answerLength;

/**
 * `100000` as `100,000`. Not `toLocaleString`: the first Intl number format of a process costs
 * about 20 ms and 7 MiB, which every start would pay for one message.
 */
export function groupDigits(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

const LONGEST = groupDigits(LONGEST_ANSWER);

/** Why a typed answer this long is refused, in both modes: it is never cut silently. */
export function answerTooLongMessage(length: number): string {
  return `This answer has ${groupDigits(length)} characters; an answer holds at most ${LONGEST}.`;
}

/** What the editor says when text was left out (pasted) or refused (typed) at the limit. */
export function answerLimitMessage(pasted: boolean): string {
  return pasted
    ? `Paste cut: an answer holds at most ${LONGEST} characters.`
    : `An answer holds at most ${LONGEST} characters.`;
}
