import { closeSync, fdatasync, writeSync } from "node:fs";
import { promisify } from "node:util";
import type { TaskLog, TaskLogEntry, TaskStatus } from "../task/contracts/seams.js";
import type { HeldLock } from "./lock.js";
import type { ConversationPosition, StoreLogEntry } from "./types.js";
import { UsageTally, type TaskUsageCounts } from "./usage-tally.js";

const datasync = promisify(fdatasync);

/** What the history index needs to know about a task as it changes. */
export interface TaskProgress {
  status: TaskStatus;
  tokensIn: number;
  tokensOut: number;
  cost: number;
  updatedAt: number;
  /** Requests, cache hits, tool calls and time (#36); filled in by the writer. */
  usage?: TaskUsageCounts;
}

export interface TaskLogWriterOptions {
  taskId: string;
  logPath: string;
  /** An fd opened in append mode on `logPath`. */
  fd: number;
  /** True when the file does not end with a newline (a torn last line from a crash). */
  startsMidLine: boolean;
  initial: { apiHistoryLength: number; uiMessageIds: string[]; progress: TaskProgress };
  lock: HeldLock;
  /** Called (in order, never concurrently) when the status changes and on close. */
  onProgress: (progress: TaskProgress) => Promise<void>;
  /**
   * A new task's meta.json and index row, still on their way to the disk (the first request does not
   * wait for them): progress rows queue behind them, and `flush` fails if they failed.
   */
  settling?: Promise<void>;
}

/**
 * The Task's log: one JSON line per entry, appended to an append-mode fd.
 *
 * Each `append` writes its line at once with a synchronous write, so a `kill -9`
 * loses nothing that `append` returned from (the data is in the kernel); `flush`
 * adds an fdatasync for power loss. Nothing is ever rewritten, so an append costs
 * the same at entry 5,000 as at entry 1 (SPEC P-perf-4).
 */
export class TaskLogWriter implements TaskLog {
  readonly taskId: string;
  readonly logPath: string;
  private fd: number | undefined;
  /** After a failed write we do not know where the line stopped: start the next one fresh. */
  private needsNewline: boolean;
  private failure: Error | undefined;
  private apiHistoryLength: number;
  private uiMessageIds: string[];
  private readonly knownUiIds: Set<string>;
  private progress: TaskProgress;
  private progressWrites: Promise<void> = Promise.resolve();
  private readonly tally: UsageTally;
  private readonly lock: HeldLock;
  private readonly onProgress: (progress: TaskProgress) => Promise<void>;

  constructor(options: TaskLogWriterOptions) {
    this.taskId = options.taskId;
    this.logPath = options.logPath;
    this.fd = options.fd;
    this.needsNewline = options.startsMidLine;
    this.apiHistoryLength = options.initial.apiHistoryLength;
    this.uiMessageIds = [...options.initial.uiMessageIds];
    this.knownUiIds = new Set(this.uiMessageIds);
    this.progress = options.initial.progress;
    this.tally = new UsageTally(options.initial.progress.usage);
    this.lock = options.lock;
    this.onProgress = options.onProgress;
    if (options.settling !== undefined) {
      this.progressWrites = options.settling.catch((error: unknown) => {
        this.failure ??= error instanceof Error ? error : new Error(String(error));
      });
    }
  }

  append(entry: TaskLogEntry): void {
    this.appendEntry(entry);
  }

  /** Appends any entry, including the store's own (`ui_truncate`). */
  appendEntry(entry: StoreLogEntry): void {
    if (this.fd === undefined) throw new Error(`the log of task ${this.taskId} is closed; it cannot take more entries`);
    this.track(entry);
    const line = `${this.needsNewline ? "\n" : ""}${JSON.stringify(entry)}\n`;
    const buffer = Buffer.from(line, "utf8");
    try {
      let written = 0;
      while (written < buffer.length) written += writeSync(this.fd, buffer, written, buffer.length - written);
      this.needsNewline = false;
    } catch (error) {
      this.needsNewline = true;
      this.failure ??= new Error(`could not write to the task log ${this.logPath}: ${error instanceof Error ? error.message : String(error)}; ` + `entries after this point may be missing (is the disk full?)`);
    }
  }

  /**
   * Cuts the conversation back to `position` (appending truncate entries, only if it is
   * longer): after a resume drops the leftovers of an interruption, the log must drop
   * them too, or the next load would bring them back.
   */
  cutTo(position: ConversationPosition): void {
    if (position.apiHistoryLength < this.apiHistoryLength) {
      this.appendEntry({ kind: "api_truncate", length: position.apiHistoryLength });
    }
    if (position.uiMessageCount < this.uiMessageIds.length) {
      this.appendEntry({ kind: "ui_truncate", count: position.uiMessageCount });
    }
  }

  /** Where the conversation stands now (for checkpoints). */
  position(): ConversationPosition {
    return { apiHistoryLength: this.apiHistoryLength, uiMessageCount: this.uiMessageIds.length };
  }

  /** Resolves when everything appended so far is on disk; rejects if a write failed. */
  async flush(): Promise<void> {
    if (this.failure === undefined && this.fd !== undefined) await datasync(this.fd);
    await this.progressWrites;
    const failure = this.failure;
    this.failure = undefined;
    if (failure !== undefined) throw failure;
  }

  /** Flushes, updates the history index and releases the task's lock. Safe to call twice. */
  async close(): Promise<void> {
    if (this.fd === undefined) return;
    try {
      await this.flush();
    } finally {
      const fd = this.fd;
      this.fd = undefined;
      closeSync(fd);
      this.queueProgress();
      await this.progressWrites;
      await this.lock.release();
    }
  }

  private track(entry: StoreLogEntry): void {
    switch (entry.kind) {
      case "ui":
        this.tally.observe(entry.message);
        if (!this.knownUiIds.has(entry.message.id)) {
          this.knownUiIds.add(entry.message.id);
          this.uiMessageIds.push(entry.message.id);
        }
        break;
      case "api":
        this.apiHistoryLength += 1;
        break;
      case "api_truncate":
        this.apiHistoryLength = Math.max(0, Math.min(entry.length, this.apiHistoryLength));
        break;
      case "api_drop":
        this.apiHistoryLength = Math.max(0, this.apiHistoryLength - Math.max(0, Math.min(entry.count, this.apiHistoryLength - entry.start)));
        break;
      case "api_compact":
        this.apiHistoryLength = entry.messages.length;
        break;
      case "api_uncompact":
        this.apiHistoryLength = entry.length;
        break;
      case "ui_truncate":
        this.tally.forget(this.uiMessageIds.slice(Math.max(0, entry.count)));
        for (const id of this.uiMessageIds.slice(Math.max(0, entry.count))) this.knownUiIds.delete(id);
        this.uiMessageIds = this.uiMessageIds.slice(0, Math.max(0, entry.count));
        break;
      case "status":
        this.tally.endRun();
        this.progress = {
          status: entry.status,
          tokensIn: entry.tokensIn,
          tokensOut: entry.tokensOut,
          cost: entry.cost,
          updatedAt: Date.now(),
        };
        this.queueProgress();
        break;
    }
  }

  private queueProgress(): void {
    const progress = { ...this.progress, updatedAt: Date.now(), usage: this.tally.counts() };
    // The index can always be rebuilt from the logs, so a failed update is not the Task's problem.
    this.progressWrites = this.progressWrites.then(() => this.onProgress(progress)).catch(() => {});
  }
}
