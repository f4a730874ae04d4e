/**
 * SPEC T8: one mutex for every change of task state, so stream callbacks, tool
 * execution and user interaction cannot interleave inside a critical section.
 *
 * How far it reaches: every change of the conversation history (adding a
 * message, truncating it) and every change a tool's outcome makes to the round
 * (its result, the rejection and serial-gate flags, completion, a mode switch).
 * Those writers check `assertHeld`, so code that changes them outside the lock
 * fails at once instead of racing. The presenter's own cursor and lock flags
 * (P2, P3) are not under it: they are written only by the presenter, between
 * awaits, by design of the lock + pending scheme.
 */
export class StateLock {
  private tail: Promise<void> = Promise.resolve();
  private depth = 0;

  async withStateLock<T>(critical: () => Promise<T> | T): Promise<T> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    this.depth += 1;
    try {
      return await critical();
    } finally {
      this.depth -= 1;
      release();
    }
  }

  /** True while a critical section runs. */
  get held(): boolean {
    return this.depth > 0;
  }

  assertHeld(what: string): void {
    if (!this.held) throw new Error(`internal error: ${what} outside the state lock (SPEC T8)`);
  }
}
