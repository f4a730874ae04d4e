/**
 * Spend caps across tasks (#36): a daily and a monthly limit in US dollars on
 * what every task of a user (the data folder's ledger, src/store/spend-ledger.ts)
 * or of a fleet (Redis, src/fleet/spend-redis-ledger.ts) spends together. The
 * Task asks before each request and reports each request's cost after it; at
 * a cap the task stops with the budget status, saying which cap, what was spent
 * and when it resets. Days and months are UTC, so every machine of a fleet
 * agrees on them.
 */
import type { SpendCapLimits } from "./settings-schema.js";

export type { SpendCapLimits } from "./settings-schema.js";

/** Where the spending of many tasks adds up; safe for concurrent processes. */
export interface SpendLedger {
  /** US dollars spent on the UTC day and month of `now`. */
  spent(now: number): Promise<{ day: number; month: number }>;
  /** Adds a request's cost to the day and month of `now`. */
  charge(cost: number, now: number): Promise<void>;
  /** Where it is kept, for messages ("this user's data folder", "the fleet"). */
  readonly scope: string;
}

/** The seam the Task consults (src/task/contracts/task-options.ts `spendCap`). */
export interface SpendCapSeam {
  /** Before a request; a text means stop (it names the cap, the spending and the reset). */
  beforeRequest(): Promise<string | undefined>;
  /** After a request, with what it cost. */
  charge(cost: number): Promise<void>;
}

export function hasSpendCap(limits: SpendCapLimits | undefined): limits is SpendCapLimits {
  return limits !== undefined && (limits.daily !== undefined || limits.monthly !== undefined);
}

export function utcDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

export function utcMonth(now: number): string {
  return new Date(now).toISOString().slice(0, 7);
}

function nextDay(now: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1);
}

function nextMonth(now: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

function inWords(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.round(hours / 24)} days`;
}

const dollars = (value: number): string => `$${value.toFixed(2)}`;

function reached(kind: "daily" | "monthly", cap: number, spent: number, resetsAt: number, now: number, scope: string): string {
  const period = kind === "daily" ? "today" : "this month";
  const reset = new Date(resetsAt).toISOString().slice(0, 16).replace("T", " ");
  return `Spend cap reached: the ${kind} spend cap (spendCap.${kind}) of ${dollars(cap)} for ${scope} is reached: ${dollars(spent)} spent ${period} (UTC) across tasks; it resets at ${reset} UTC (in ${inWords(resetsAt - now)}). Resume the task then, or raise spendCap.${kind} in your settings`;
}

export class SpendCap implements SpendCapSeam {
  constructor(
    private readonly limits: SpendCapLimits,
    private readonly ledger: SpendLedger,
    private readonly now: () => number = Date.now,
  ) {}

  async beforeRequest(): Promise<string | undefined> {
    const now = this.now();
    const spent = await this.ledger.spent(now);
    const { daily, monthly } = this.limits;
    if (daily !== undefined && spent.day >= daily) return reached("daily", daily, spent.day, nextDay(now), now, this.ledger.scope);
    if (monthly !== undefined && spent.month >= monthly) return reached("monthly", monthly, spent.month, nextMonth(now), now, this.ledger.scope);
    return undefined;
  }

  async charge(cost: number): Promise<void> {
    if (cost > 0 && Number.isFinite(cost)) await this.ledger.charge(cost, this.now());
  }
}
