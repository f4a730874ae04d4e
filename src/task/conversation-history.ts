import type { Replacement } from "../context/contract.js";
import { truncateHistory } from "../context/truncate-history.js";
import type { Message } from "../llm/types.js";
import type { TaskLog } from "./contracts/seams.js";
import type { StateLock } from "./state-lock.js";

/**
 * The API conversation of a task: every change goes through the state lock
 * (SPEC T8) and is appended to the task log as it happens (P-perf-4).
 */
export class ConversationHistory {
  readonly messages: Message[];

  constructor(private readonly options: { log: TaskLog; stateLock: StateLock; initial: Message[] }) {
    this.messages = [...options.initial];
  }

  async add(message: Message): Promise<void> {
    await this.options.stateLock.withStateLock(() => {
      this.messages.push(message);
      this.options.log.append({ kind: "api", message });
    });
  }

  /**
   * Compaction (src/context): the conversation continues from what `update` makes of it now,
   * inside the lock, so nothing added since the compaction's snapshot is lost; the log says so.
   */
  async replace(update: (current: readonly Message[]) => Replacement | undefined): Promise<boolean> {
    return this.options.stateLock.withStateLock(() => {
      const replacement = update(this.messages.slice());
      if (replacement === undefined) return false;
      this.messages.splice(0, this.messages.length, ...replacement.messages);
      this.options.log.append(replacement.entry);
      return true;
    });
  }

  /** Drops the oldest turns to fit the context window; returns how many messages went. */
  async shrink(): Promise<number> {
    return this.options.stateLock.withStateLock(() => {
      const result = truncateHistory(this.messages);
      if (result.removed === 0) return 0;
      this.messages.splice(0, this.messages.length, ...result.messages);
      // One marker, replayed by the reader: the log stays append-only and its cost flat (P-perf-4).
      this.options.log.append({ kind: "api_drop", start: result.start, count: result.removed });
      return result.removed;
    });
  }
}
