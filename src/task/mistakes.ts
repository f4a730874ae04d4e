/**
 * SPEC T9: one tracker of consecutive mistakes, and a detector of the model
 * repeating the same tool call.
 */
export type MistakeKind = "no_tool_used" | "missing_parameter" | "tool_failed" | "invalid_arguments" | "empty_response";

export type RepetitionVerdict = "ok" | "warn" | "limit";

export class MistakeTracker {
  private consecutive = 0;
  private lastCallSignature: string | undefined;
  private repetitions = 0;

  constructor(
    readonly limit: number,
    private readonly repetitionWarnAt = 3,
    private readonly repetitionLimitAt = 5,
  ) {}

  get count(): number {
    return this.consecutive;
  }

  record(_kind: MistakeKind): void {
    this.consecutive += 1;
  }

  /** A successful tool call or a message from the user. */
  reset(): void {
    this.consecutive = 0;
  }

  reachedLimit(): boolean {
    return this.consecutive >= this.limit;
  }

  /** Called for every complete tool call before it runs. */
  noteToolCall(name: string, params: Record<string, string>): RepetitionVerdict {
    const signature = `${name}\u0000${JSON.stringify(Object.entries(params).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))}`;
    if (signature === this.lastCallSignature) {
      this.repetitions += 1;
    } else {
      this.lastCallSignature = signature;
      this.repetitions = 1;
    }
    if (this.repetitions >= this.repetitionLimitAt) return "limit";
    return this.repetitions >= this.repetitionWarnAt ? "warn" : "ok";
  }

  /** Repeating one call too often counts as reaching the limit. */
  markLimitReached(): void {
    this.consecutive = Math.max(this.consecutive, this.limit);
  }

  /** After the user gave guidance at the limit, repetition starts over too. */
  resetRepetition(): void {
    this.lastCallSignature = undefined;
    this.repetitions = 0;
  }
}
