/**
 * How a UI says a question's time limit, the one wording of every UI: `timeLeft` (as the UI
 * formats it, `90 s` or `1:06`) and what happens then, in words true for any harness, with or
 * without an agent behind the question: `90 s left to answer: then it is withdrawn, unanswered`.
 */
export function timeLimitSentence(timeLeft: string): string {
  return `${timeLeft} left to answer: then it is withdrawn, unanswered`;
}
