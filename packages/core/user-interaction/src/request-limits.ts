/**
 * Upper bounds of a question, in UTF-16 code units. Generous for real use (long option
 * lists are normal); they exist so that a runaway model cannot flood a screen or a form.
 */
export const REQUEST_LIMITS = {
  /** Characters in `question`. */
  questionLength: 4_000,
  /** Characters in `header`. */
  headerLength: 100,
  /** Number of `options`. */
  options: 10_000,
  /** Characters in an option's `label`. */
  labelLength: 500,
  /** Characters in an option's `value`. */
  valueLength: 4_000,
  /** Characters in an option's `description`. */
  descriptionLength: 2_000,
  /** Questions asked at once (`askAll`). */
  questions: 10,
  /** Characters in a question's `id` (`askAll`). */
  idLength: 64,
  /** Characters in an answer's text (typed or an option's value). */
  answerLength: 100_000,
  /** Milliseconds in `timeoutMs` (the largest delay a timer accepts). */
  timeoutMs: 2_147_483_647,
} as const;
