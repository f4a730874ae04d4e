/**
 * SPEC T8: one mutex for every change of task state, so stream callbacks, tool
 * execution and user interaction cannot interleave inside a critical section.
 */
export class StateLock {
  private tail: Promise<void> = Promise.resolve();

  async withStateLock<T>(critical: () => Promise<T> | T): Promise<T> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    try {
      return await critical();
    } finally {
      release();
    }
  }
}
