import { dropMessages } from "../context/truncate-history.js";
import { replayCompaction } from "../context/compaction-log.js";
import type { UncompactState } from "../context/compaction-log.js";
import type { Message } from "../llm/types.js";
import type { TaskStatus } from "../task/contracts/seams.js";
import type { UiMessage } from "../task/contracts/messages.js";
import type { ConversationPosition, StoreLogEntry } from "./types.js";
import { UsageTally, type TaskUsageCounts } from "./usage-tally.js";

export interface ReadLog {
  uiMessages: UiMessage[];
  apiHistory: Message[];
  status: TaskStatus;
  tokensIn: number;
  tokensOut: number;
  cost: number;
  warnings: string[];
  /** The conversation before the last compaction (for `/uncompact` after a resume). */
  uncompact?: UncompactState;
  /** Time the task ran, summed over its runs (#14 `--max-time` counts the whole task across resumes). */
  activeMs: number;
  /** Requests, cache hits, tool calls and time, for `cairn usage` (#36). */
  usage: TaskUsageCounts;
}

const statuses: ReadonlySet<string> = new Set(["running", "completed", "failed", "aborted", "budget"]);

/** One line of a log as its entry; undefined when it is damaged or cut off. */
export function parseLogLine(line: string): StoreLogEntry | undefined {
  try {
    return asEntry(JSON.parse(line));
  } catch {
    return undefined;
  }
}

/** Accepts a parsed line only if it has the shape of an entry; anything else counts as damage. */
function asEntry(value: unknown): StoreLogEntry | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const entry = value as Record<string, unknown>;
  switch (entry["kind"]) {
    case "ui": {
      const message = entry["message"] as Record<string, unknown> | undefined;
      return typeof message?.["id"] === "string" ? (value as StoreLogEntry) : undefined;
    }
    case "api": {
      const message = entry["message"] as Record<string, unknown> | undefined;
      return Array.isArray(message?.["content"]) ? (value as StoreLogEntry) : undefined;
    }
    case "api_truncate":
      return typeof entry["length"] === "number" ? (value as StoreLogEntry) : undefined;
    case "ui_truncate":
      return typeof entry["count"] === "number" ? (value as StoreLogEntry) : undefined;
    case "api_drop":
      return typeof entry["start"] === "number" && typeof entry["count"] === "number" ? (value as StoreLogEntry) : undefined;
    case "api_compact":
      return Array.isArray(entry["messages"]) ? (value as StoreLogEntry) : undefined;
    case "api_uncompact":
      return typeof entry["length"] === "number" ? (value as StoreLogEntry) : undefined;
    case "status":
      return statuses.has(String(entry["status"])) ? (value as StoreLogEntry) : undefined;
    default:
      return undefined;
  }
}

/** Replays log entries into the conversation they describe. */
export class LogReplay {
  private readonly uiById = new Map<string, UiMessage>();
  private uiOrder: string[] = [];
  readonly apiHistory: Message[] = [];
  status: TaskStatus = "running";
  tokensIn = 0;
  tokensOut = 0;
  cost = 0;
  uncompact: UncompactState | undefined;
  /** Requests, tool calls and the time each run took (a run ends with a status entry). */
  readonly tally = new UsageTally();

  /** Time the task ran so far: the spans of its runs, without the gaps between them. */
  get activeMs(): number {
    return this.tally.activeMs;
  }

  apply(entry: StoreLogEntry): void {
    switch (entry.kind) {
      case "ui":
        this.tally.observe(entry.message);
        if (!this.uiById.has(entry.message.id)) this.uiOrder.push(entry.message.id);
        this.uiById.set(entry.message.id, entry.message);
        break;
      case "api":
        this.apiHistory.push(entry.message);
        break;
      case "api_truncate":
        this.apiHistory.length = Math.max(0, Math.min(entry.length, this.apiHistory.length));
        break;
      case "api_drop":
        this.apiHistory.splice(0, this.apiHistory.length, ...dropMessages(this.apiHistory, entry.start, entry.count));
        break;
      case "ui_truncate": {
        const removed = this.uiOrder.slice(Math.max(0, entry.count));
        for (const id of removed) this.uiById.delete(id);
        this.tally.forget(removed);
        this.uiOrder = this.uiOrder.slice(0, Math.max(0, entry.count));
        break;
      }
      case "api_compact":
      case "api_uncompact":
        this.uncompact = replayCompaction(this.apiHistory, this.uncompact, entry);
        break;
      case "status":
        this.tally.endRun();
        this.status = entry.status;
        this.tokensIn = entry.tokensIn;
        this.tokensOut = entry.tokensOut;
        this.cost = entry.cost;
        break;
    }
  }

  position(): ConversationPosition {
    return { apiHistoryLength: this.apiHistory.length, uiMessageCount: this.uiOrder.length };
  }

  uiMessages(): UiMessage[] {
    const messages: UiMessage[] = [];
    for (const id of this.uiOrder) {
      const message = this.uiById.get(id);
      if (message !== undefined) messages.push(message);
    }
    return messages;
  }
}

/**
 * Reads a whole log. A last line without its newline is a write the process did not
 * finish (a kill mid-write): it is dropped and reported. A damaged line elsewhere is
 * skipped and reported. Neither is fatal: the user gets back everything that was written.
 */
export function readLog(text: string): ReadLog {
  const replay = new LogReplay();
  const warnings: string[] = [];
  const lines = text.split("\n");
  const endsCleanly = text.length === 0 || text.endsWith("\n");
  const lastIndex = lines.length - 1;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? "";
    if (line.trim() === "") continue;
    const isUnfinished = index === lastIndex && !endsCleanly;
    const entry = parseLogLine(line);
    if (entry === undefined) {
      warnings.push(isUnfinished ? `the last line of the log (line ${index + 1}) was cut off mid-write, probably by a crash or kill; it was dropped` : `line ${index + 1} of the log is damaged and was skipped`);
      continue;
    }
    replay.apply(entry);
  }
  return {
    uiMessages: replay.uiMessages(),
    apiHistory: replay.apiHistory,
    status: replay.status,
    tokensIn: replay.tokensIn,
    tokensOut: replay.tokensOut,
    cost: replay.cost,
    warnings,
    activeMs: replay.activeMs,
    usage: replay.tally.counts(),
    ...(replay.uncompact ? { uncompact: replay.uncompact } : {}),
  };
}
