/** A queue whose `next()` waits for the next pushed item, so tests wait on events, never on time. */
export class AsyncQueue<T> {
  private readonly items: T[] = [];
  private readonly waiters: ((item: T) => void)[] = [];
  /** Every item ever pushed, in order. */
  readonly all: T[] = [];

  push(item: T): void {
    this.all.push(item);
    const waiter = this.waiters.shift();
    if (waiter === undefined) this.items.push(item);
    else waiter(item);
  }

  next(): Promise<T> {
    const item = this.items.shift();
    if (item !== undefined) return Promise.resolve(item);
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}
