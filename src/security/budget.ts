/**
 * Budgets for a whole task (#14): requests, tokens, cost, time and tool calls.
 * The Task consults it before each request and each tool call; at a limit the
 * task stops cleanly with a `budget` message naming it (and stays resumable:
 * a resume may raise the limit). Counts start from what the task already used
 * before a resume: its requests (summary requests included), tool calls, time
 * it ran, and what the subagents of its earlier runs spent.
 */
import type { BudgetLimits } from "./settings-schema.js";

export type { BudgetLimits } from "./settings-schema.js";

export interface UsageTotals {
  tokensIn: number;
  tokensOut: number;
  cost: number;
}

export const zeroUsage: UsageTotals = { tokensIn: 0, tokensOut: 0, cost: 0 };

export function addUsage(left: UsageTotals, right: UsageTotals): UsageTotals {
  return { tokensIn: left.tokensIn + right.tokensIn, tokensOut: left.tokensOut + right.tokensOut, cost: left.cost + right.cost };
}

export function subtractUsage(left: UsageTotals, right: UsageTotals): UsageTotals {
  return { tokensIn: left.tokensIn - right.tokensIn, tokensOut: left.tokensOut - right.tokensOut, cost: left.cost - right.cost };
}

/** What a task's requests spent, from the usage in their `api_req_started` messages (summary requests are not in them). */
export function spentByRequests(messages: ReadonlyArray<{ type: string; say?: string; meta?: Record<string, unknown> }>): UsageTotals {
  const total = { ...zeroUsage };
  for (const message of messages) {
    if (message.type !== "say" || message.say !== "api_req_started") continue;
    const number = (key: string): number => {
      const value = message.meta?.[key];
      return typeof value === "number" && Number.isFinite(value) ? value : 0;
    };
    total.tokensIn += number("tokensIn");
    total.tokensOut += number("tokensOut");
    total.cost += number("cost");
  }
  return total;
}

/** The seam the Task consults (src/task/task-options.ts `budget`). */
export interface TaskBudgetSeam {
  /** Before a request; a text means stop (it names the limit). */
  beforeRequest(usage: UsageTotals): string | undefined;
  /** Before a tool call; a text means the tool does not run and the task stops before its next request. */
  beforeToolCall(): string | undefined;
}

export class TaskBudget implements TaskBudgetSeam {
  private requests: number;
  private toolCalls: number;
  private readonly startedAt: number;
  private readonly elapsedMsSoFar: number;
  /** Spending the task's own counter does not hold (subagents of earlier runs). */
  private readonly usageSoFar: UsageTotals;
  private exhausted: string | undefined;

  constructor(
    private readonly limits: BudgetLimits,
    options: { requestsSoFar?: number; toolCallsSoFar?: number; elapsedMsSoFar?: number; usageSoFar?: UsageTotals; now?: () => number } = {},
  ) {
    this.requests = options.requestsSoFar ?? 0;
    this.toolCalls = options.toolCallsSoFar ?? 0;
    this.elapsedMsSoFar = options.elapsedMsSoFar ?? 0;
    this.usageSoFar = options.usageSoFar ?? { tokensIn: 0, tokensOut: 0, cost: 0 };
    this.now = options.now ?? Date.now;
    this.startedAt = this.now();
  }

  private total(usage: UsageTotals): UsageTotals {
    return { tokensIn: usage.tokensIn + this.usageSoFar.tokensIn, tokensOut: usage.tokensOut + this.usageSoFar.tokensOut, cost: usage.cost + this.usageSoFar.cost };
  }

  /** Seconds the task ran: the earlier runs and this one. */
  private elapsedSeconds(): number {
    return (this.elapsedMsSoFar + this.now() - this.startedAt) / 1000;
  }

  private readonly now: () => number;

  get active(): boolean {
    return Object.values(this.limits).some((limit) => limit !== undefined);
  }

  beforeRequest(ownUsage: UsageTotals): string | undefined {
    const usage = this.total(ownUsage);
    const { maxRequests, maxTokens, maxCost } = this.limits;
    this.exhausted ??=
      (maxRequests !== undefined && this.requests >= maxRequests ? stop(`--max-requests ${maxRequests}`, `${this.requests} requests made`) : undefined) ??
      (maxTokens !== undefined && usage.tokensIn + usage.tokensOut >= maxTokens ? stop(`--max-tokens ${maxTokens}`, `${usage.tokensIn + usage.tokensOut} tokens used`) : undefined) ??
      (maxCost !== undefined && usage.cost >= maxCost ? stop(`--max-cost ${maxCost}`, `$${usage.cost.toFixed(4)} spent`) : undefined) ??
      this.timeUp();
    if (this.exhausted === undefined) this.requests += 1;
    return this.exhausted;
  }

  beforeToolCall(): string | undefined {
    const { maxToolCalls } = this.limits;
    this.exhausted ??= (maxToolCalls !== undefined && this.toolCalls >= maxToolCalls ? stop(`--max-tool-calls ${maxToolCalls}`, `${this.toolCalls} tool calls made`) : undefined) ?? this.timeUp();
    if (this.exhausted === undefined) this.toolCalls += 1;
    return this.exhausted;
  }

  /** For the status line: what is left of each limit. */
  remaining(ownUsage: UsageTotals): string {
    const usage = this.total(ownUsage);
    const { maxRequests, maxTokens, maxCost, maxTime, maxToolCalls } = this.limits;
    const parts: string[] = [];
    if (maxRequests !== undefined) parts.push(`${Math.max(0, maxRequests - this.requests)} requests`);
    if (maxTokens !== undefined) parts.push(`${Math.max(0, maxTokens - usage.tokensIn - usage.tokensOut)} tokens`);
    if (maxCost !== undefined) parts.push(`$${Math.max(0, maxCost - usage.cost).toFixed(2)}`);
    if (maxTime !== undefined) parts.push(`${Math.max(0, Math.round(maxTime - this.elapsedSeconds()))} s`);
    if (maxToolCalls !== undefined) parts.push(`${Math.max(0, maxToolCalls - this.toolCalls)} tool calls`);
    return parts.length === 0 ? "" : `budget left: ${parts.join(", ")}`;
  }

  private timeUp(): string | undefined {
    const { maxTime } = this.limits;
    const seconds = this.elapsedSeconds();
    return maxTime !== undefined && seconds >= maxTime ? stop(`--max-time ${maxTime}s`, `${Math.round(seconds)} s elapsed`) : undefined;
  }
}

function stop(limit: string, used: string): string {
  return `Budget reached: ${limit} (${used}). The task stopped and can be resumed; a resume may raise the limit.`;
}

/** Requests (summary requests of compactions included) and tool calls a resumed task already made, from its messages. */
export function countSoFar(messages: ReadonlyArray<{ type: string; say?: string; ask?: string; partial?: boolean; meta?: Record<string, unknown> }>): { requestsSoFar: number; toolCallsSoFar: number } {
  let requestsSoFar = 0;
  let toolCallsSoFar = 0;
  for (const message of messages) {
    if (message.say === "api_req_started") requestsSoFar += 1;
    if (message.say === "condense") requestsSoFar += summaryRequestsOf(message.meta);
    if (message.partial !== true && isToolCall(message)) toolCallsSoFar += 1;
  }
  return { requestsSoFar, toolCallsSoFar };
}

/**
 * The message each tool call leaves, as the live count counts them (every call the
 * Task runs): file, search and command tools say `tool` or `command` (also when
 * they were asked), attempt_completion says `completion_result`, and the
 * conversation tools ask (`followup`, `plan_mode_respond`).
 */
function isToolCall(message: { say?: string; ask?: string }): boolean {
  if (message.say !== undefined) return message.say === "tool" || message.say === "command" || message.say === "completion_result";
  return message.ask === "followup" || message.ask === "plan_mode_respond";
}

function summaryRequestsOf(meta: Record<string, unknown> | undefined): number {
  const summary = meta?.["summaryRequests"];
  if (typeof summary !== "object" || summary === null) return 0;
  const requests = (summary as Record<string, unknown>)["requests"];
  return typeof requests === "number" && Number.isFinite(requests) && requests > 0 ? requests : 0;
}
