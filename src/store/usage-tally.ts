/**
 * What a task used beyond its token and cost totals, for `cairn usage` (issue
 * #36): its requests, cache hits, tool calls and the time it ran. Counted from
 * the log's UI messages as they are written (log-writer.ts) and as a log is read
 * back (log-reader.ts), so the history index's row carries them and a report
 * over 10,000 tasks never reads a log.
 */
import type { UiMessage } from "../task/contracts/messages.js";

/** A task's counts beyond tokens and cost, kept in its history index row. */
export interface TaskUsageCounts {
  /** Model requests (those of context compaction's summaries excepted). */
  requests: number;
  /** Requests that read part of their prompt from the provider's cache. */
  cacheHits: number;
  /** Prompt tokens read from the cache (not in `tokensIn`). */
  cachedTokens: number;
  toolCalls: number;
  /** Time the task ran, summed over its runs (the gaps between runs do not count). */
  activeMs: number;
}

export const noUsageCounts: TaskUsageCounts = { requests: 0, cacheHits: 0, cachedTokens: 0, toolCalls: 0, activeMs: 0 };

/** Cards a tool call leaves, one per call (as `--max-tool-calls` counts them). */
function isToolCall(message: UiMessage): boolean {
  if (message.type === "say") return message.say === "tool" || message.say === "command" || message.say === "completion_result";
  return message.ask === "followup" || message.ask === "plan_mode_respond" || message.ask === "use_mcp_server";
}

function cacheReadsOf(message: UiMessage): number {
  const value = message.meta?.["cacheReads"];
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

export class UsageTally {
  private readonly base: TaskUsageCounts;
  private readonly requestCache = new Map<string, number>();
  private readonly toolCallIds = new Set<string>();
  private finishedRunsMs = 0;
  private run: { first: number; last: number } | undefined;
  private previousRunsEnd = Number.NEGATIVE_INFINITY;

  /** `base`: what the task's earlier runs used (a resumed task's writer). */
  constructor(base: TaskUsageCounts = noUsageCounts) {
    this.base = base;
  }

  /** Time the task ran so far: the spans of its runs, without the gaps between them. */
  get activeMs(): number {
    return this.finishedRunsMs + (this.run === undefined ? 0 : this.run.last - this.run.first);
  }

  /** A UI message as it is written (the same id again is an update of it). */
  observe(message: UiMessage): void {
    this.timeMessage(message.ts);
    if (message.type === "say" && message.say === "api_req_started") this.requestCache.set(message.id, cacheReadsOf(message));
    else if (message.partial !== true && isToolCall(message)) this.toolCallIds.add(message.id);
  }

  /** A status entry: the end of one run of the task. */
  endRun(): void {
    if (this.run === undefined) return;
    this.finishedRunsMs += this.run.last - this.run.first;
    this.previousRunsEnd = this.run.last;
    this.run = undefined;
  }

  /** Messages a conversation restore dropped are not counted. */
  forget(ids: Iterable<string>): void {
    for (const id of ids) {
      this.requestCache.delete(id);
      this.toolCallIds.delete(id);
    }
  }

  counts(): TaskUsageCounts {
    let cacheHits = 0;
    let cachedTokens = 0;
    for (const reads of this.requestCache.values()) {
      if (reads > 0) cacheHits += 1;
      cachedTokens += reads;
    }
    return {
      requests: this.base.requests + this.requestCache.size,
      cacheHits: this.base.cacheHits + cacheHits,
      cachedTokens: this.base.cachedTokens + cachedTokens,
      toolCalls: this.base.toolCalls + this.toolCallIds.size,
      activeMs: this.base.activeMs + this.activeMs,
    };
  }

  private timeMessage(ts: unknown): void {
    // A message of an earlier run written again (an update) must not stretch this run back over the gap.
    if (typeof ts !== "number" || !Number.isFinite(ts) || ts <= this.previousRunsEnd) return;
    this.run = this.run === undefined ? { first: ts, last: ts } : { first: Math.min(this.run.first, ts), last: Math.max(this.run.last, ts) };
  }
}

/** Whether a parsed value is a row's counts (rows of earlier versions have none). */
export function isUsageCounts(value: unknown): value is TaskUsageCounts {
  if (typeof value !== "object" || value === null) return false;
  const counts = value as Record<string, unknown>;
  return ["requests", "cacheHits", "cachedTokens", "toolCalls", "activeMs"].every((key) => typeof counts[key] === "number");
}
