/** How much a thinking model reasons before it answers: `off`, or an effort. */
export type ThinkingLevel = 'off' | 'low' | 'high' | 'max';

/** Every thinking level, in order of effort. */
export const THINKING_LEVELS: readonly ThinkingLevel[] = Object.freeze([
  'off',
  'low',
  'high',
  'max',
]);

/** True for one of `THINKING_LEVELS`. */
export function isThinkingLevel(value: unknown): value is ThinkingLevel {
  return (THINKING_LEVELS as readonly unknown[]).includes(value);
}
