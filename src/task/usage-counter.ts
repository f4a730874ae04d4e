import { costOf } from "../llm/models.js";
import type { ModelInfo, UsageChunk } from "../llm/types.js";

interface Counts {
  tokensIn: number;
  tokensOut: number;
  cacheReads: number;
  cacheWrites: number;
  cost: number;
}

const zero = (): Counts => ({ tokensIn: 0, tokensOut: 0, cacheReads: 0, cacheWrites: 0, cost: 0 });

/** SPEC T12: usage chunks feed the token and cost counters, per request and for the task. */
export class UsageCounter {
  private total = zero();
  private round = zero();
  private lastContext = 0;

  /** `initial`: the totals a resumed task had, so totals cover the whole task (#11). */
  constructor(
    private readonly model: ModelInfo,
    initial?: { tokensIn: number; tokensOut: number; cost: number },
  ) {
    if (initial) Object.assign(this.total, { tokensIn: initial.tokensIn, tokensOut: initial.tokensOut, cost: initial.cost });
  }

  startRound(): void {
    this.round = zero();
  }

  /** Counts a chunk; returns its cost (the provider's, else the model's prices). */
  add(chunk: UsageChunk): number {
    const cost =
      chunk.cost ??
      costOf(this.model, {
        inputTokens: chunk.inputTokens,
        outputTokens: chunk.outputTokens,
        cacheReadTokens: chunk.cacheReadTokens ?? 0,
        cacheWriteTokens: chunk.cacheWriteTokens ?? 0,
      });
    for (const counts of [this.total, this.round]) {
      counts.tokensIn += chunk.inputTokens;
      counts.tokensOut += chunk.outputTokens;
      counts.cacheReads += chunk.cacheReadTokens ?? 0;
      counts.cacheWrites += chunk.cacheWriteTokens ?? 0;
      counts.cost += cost;
    }
    this.lastContext = this.round.tokensIn + this.round.tokensOut + this.round.cacheReads + this.round.cacheWrites;
    return cost;
  }

  roundSummary(): Counts {
    return { ...this.round };
  }

  totals(): { tokensIn: number; tokensOut: number; cost: number } {
    return { tokensIn: this.total.tokensIn, tokensOut: this.total.tokensOut, cost: this.total.cost };
  }

  /** Tokens the last request filled of the context window. */
  lastContextTokens(): number {
    return this.lastContext;
  }
}
