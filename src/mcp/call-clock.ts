/**
 * The time limit of one MCP call, paused while the server waits for the user
 * (an elicitation): a person filling in a form must not make the call time out.
 */
export class CallClock {
  expired = false;
  private timer: NodeJS.Timeout | undefined;
  private remainingMs: number;
  private startedAt = 0;
  private pauses = 0;

  constructor(
    limitMs: number,
    private readonly onExpire: () => void,
  ) {
    this.remainingMs = limitMs;
    this.run();
  }

  private run(): void {
    this.startedAt = Date.now();
    this.timer = setTimeout(() => {
      this.expired = true;
      this.onExpire();
    }, this.remainingMs);
  }

  /** Runs `action` with the clock stopped (nested pauses stop it once). */
  async paused<T>(action: () => Promise<T>): Promise<T> {
    if (this.pauses++ === 0 && !this.expired) {
      clearTimeout(this.timer);
      this.remainingMs = Math.max(0, this.remainingMs - (Date.now() - this.startedAt));
    }
    try {
      return await action();
    } finally {
      if (--this.pauses === 0 && !this.expired && this.timer !== undefined) this.run();
    }
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
