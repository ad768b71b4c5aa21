/** A time limit in words: `45 s`, `2 min`, `1 min 30 s`, `1 h 5 min`. */
function durationWords(milliseconds: number): string {
  const seconds = Math.max(1, Math.ceil(milliseconds / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  if (minutes < 60) return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}

/**
 * A form's message with the time left to answer it, when the question has a time limit (the
 * form is sent as the limit starts), and what happens then; the message itself otherwise.
 */
export function withTimeLeft(message: string, timeoutMs: number | undefined): string {
  if (timeoutMs === undefined) return message;
  return `${message}\n\n(${durationWords(timeoutMs)} left to answer: then the question is withdrawn, and the agent is told nobody answered.)`;
}
