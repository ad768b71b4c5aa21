/**
 * The analyses of the last command lines, by their text: an analysis depends on the text alone
 * (the rules are matched against it at each decision, read again whenever their file changes),
 * and an agent often runs the same command again (the tests, the build). Parsing a long command
 * and walking its tree is most of what its decision costs; reading it here costs nothing.
 */
export class RecentAnalyses<T> {
  readonly #entries = new Map<string, { readonly value: T; readonly weight: number }>();
  #weight = 0;

  /**
   * At most `count` texts, weighing `budget` in all: each text weighs what `set` is told (its
   * length by default). One heavier than the whole budget is never kept.
   */
  constructor(
    private readonly count: number,
    private readonly budget: number,
  ) {}

  get(text: string): T | undefined {
    const found = this.#entries.get(text);
    if (found === undefined) return undefined;
    // Used again: it is the last to go.
    this.#entries.delete(text);
    this.#entries.set(text, found);
    return found.value;
  }

  set(text: string, value: T, weight: number = text.length): void {
    if (weight > this.budget) return;
    const before = this.#entries.get(text);
    if (before !== undefined) {
      this.#entries.delete(text);
      this.#weight -= before.weight;
    }
    this.#entries.set(text, { value, weight });
    this.#weight += weight;
    for (const [oldest, entry] of this.#entries) {
      if (this.#entries.size <= this.count && this.#weight <= this.budget) break;
      this.#entries.delete(oldest);
      this.#weight -= entry.weight;
    }
  }
}
