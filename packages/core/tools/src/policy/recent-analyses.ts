/**
 * The analyses of the last command lines, by their text: an analysis depends on the text alone
 * (the rules are matched against it at each decision, read again whenever their file changes),
 * and an agent often runs the same command again (the tests, the build). Parsing a long command
 * and walking its tree is most of what its decision costs; reading it here costs nothing.
 */
export class RecentAnalyses<T> {
  readonly #entries = new Map<string, T>();
  #characters = 0;

  /** At most `count` texts, of `characters` characters in all (a long text is never kept). */
  constructor(
    private readonly count: number,
    private readonly characters: number,
  ) {}

  get(text: string): T | undefined {
    const found = this.#entries.get(text);
    if (found === undefined) return undefined;
    // Used again: it is the last to go.
    this.#entries.delete(text);
    this.#entries.set(text, found);
    return found;
  }

  set(text: string, value: T): void {
    if (text.length > this.characters) return;
    if (this.#entries.delete(text)) this.#characters -= text.length;
    this.#entries.set(text, value);
    this.#characters += text.length;
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.count && this.#characters <= this.characters) break;
      this.#entries.delete(oldest);
      this.#characters -= oldest.length;
    }
  }
}
