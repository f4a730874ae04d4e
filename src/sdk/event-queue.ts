/**
 * Events waiting for the program that iterates a task: pushed by the host as
 * they happen, taken by one async iterator. Ends once `end` is called and
 * everything pushed was taken; `fail` ends it with an error instead. When the
 * reader leaves early (`break` out of `for await`, or `return()`), what was
 * not taken is dropped, nothing more is kept, and `onLeave` runs (the task
 * aborts); `return()` settles once `onLeave` has.
 */
export class EventQueue<T> implements AsyncIterable<T> {
  constructor(private readonly onLeave: () => Promise<void> = () => Promise.resolve()) {}

  readonly #items: T[] = [];
  #head = 0;
  #waiting: ((result: IteratorResult<T>) => void) | undefined;
  #failWaiting: ((error: Error) => void) | undefined;
  #ended = false;
  #error: { error: Error } | undefined;
  #iterated = false;
  #left = false;

  push(item: T): void {
    if (this.#ended || this.#left) return;
    const waiting = this.#waiting;
    if (waiting !== undefined) {
      this.#clearWaiting();
      waiting({ value: item, done: false });
      return;
    }
    this.#items.push(item);
  }

  end(): void {
    this.#ended = true;
    this.#wakeEnd();
  }

  fail(error: Error): void {
    if (this.#ended) return;
    this.#error = { error };
    this.#ended = true;
    this.#wakeEnd();
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.#iterated) throw new Error("A task's events can be iterated once; use JsonEventReader to keep them.");
    this.#iterated = true;
    return { next: () => this.#next(), return: () => this.#leave() };
  }

  async #leave(): Promise<IteratorResult<T>> {
    if (!this.#left) {
      this.#left = true;
      const early = !this.#ended;
      this.#items.length = 0;
      this.#head = 0;
      // A next() still waiting (an iterator driven by hand) ends too.
      const waiting = this.#waiting;
      this.#clearWaiting();
      waiting?.({ value: undefined, done: true });
      if (early) await this.onLeave();
    }
    return { value: undefined, done: true };
  }

  #next(): Promise<IteratorResult<T>> {
    if (this.#left) return Promise.resolve({ value: undefined, done: true });
    if (this.#head < this.#items.length) {
      const value = this.#items[this.#head] as T;
      this.#head += 1;
      // Taken items are dropped in batches, so a long task does not keep every event.
      if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
        this.#items.splice(0, this.#head);
        this.#head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.#error !== undefined) return Promise.reject(this.#error.error);
    if (this.#ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.#waiting = resolve;
      this.#failWaiting = reject;
    });
  }

  #wakeEnd(): void {
    if (this.#head < this.#items.length) return;
    const waiting = this.#waiting;
    const failWaiting = this.#failWaiting;
    this.#clearWaiting();
    if (this.#error !== undefined) failWaiting?.(this.#error.error);
    else waiting?.({ value: undefined, done: true });
  }

  #clearWaiting(): void {
    this.#waiting = undefined;
    this.#failWaiting = undefined;
  }
}
