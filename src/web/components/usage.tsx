/** What the tasks used in the last 7 days, per day (`GET /api/usage`, the numbers of `cairn usage --since 7d --by day`). */
import { useEffect, useState } from "preact/hooks";
import { api } from "../api.js";
import { formatCost, formatTokens } from "../format.js";

interface UsageLine {
  key: string;
  tasks: number;
  tokensIn: number;
  tokensOut: number;
  cachedTokens: number;
  cost: number;
  requests: number;
  toolCalls: number;
}

interface UsageView {
  total: UsageLine;
  groups: UsageLine[];
}

export function Usage() {
  const [usage, setUsage] = useState<UsageView | undefined>(undefined);
  useEffect(() => {
    let stopped = false;
    void api
      .usage("7d", "day")
      .then((loaded) => {
        if (!stopped) setUsage(loaded as unknown as UsageView);
      })
      .catch(() => undefined);
    return () => {
      stopped = true;
    };
  }, []);
  if (usage === undefined) return null;
  const max = Math.max(0, ...usage.groups.map((group) => group.cost));
  const { total } = usage;
  return (
    <section class="panel usage" aria-label="Usage">
      <h2>
        Usage <span class="muted">last 7 days</span>
      </h2>
      <div class="row-meta">
        <span>{total.tasks} tasks</span>
        <span>
          {formatTokens(total.tokensIn)} in · {formatTokens(total.tokensOut)} out · {formatTokens(total.cachedTokens)} cached
        </span>
        <span>{total.requests} requests</span>
        <span>{total.toolCalls} tool calls</span>
        <span>{formatCost(total.cost)}</span>
      </div>
      <ul class="usage-days">
        {usage.groups.map((group) => (
          <li key={group.key}>
            <span class="usage-day">{group.key}</span>
            <span class="usage-bar" style={{ width: `${max > 0 ? Math.max(1, Math.round((group.cost / max) * 100)) : 0}%` }} />
            <span class="muted">{formatCost(group.cost)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
