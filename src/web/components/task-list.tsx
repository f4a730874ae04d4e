/** Every task, running and past, newest first, with status, cost, tokens and age; refreshed while the page is open. */
import { useEffect, useState } from "preact/hooks";
import type { TaskRow } from "../api-types.js";
import { api } from "../api.js";
import { folderName, formatAge, formatCost, formatTokens, shownStatus } from "../format.js";
import { openAskOf } from "../task-feed.js";

export function useTaskRows(everyMs: number): { rows: TaskRow[] | undefined; error: string | undefined } {
  const [rows, setRows] = useState<TaskRow[] | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    let timer: number | undefined;
    let stopped = false;
    const load = async (): Promise<void> => {
      try {
        const loaded = await api.tasks();
        if (!stopped) {
          setRows(loaded.tasks);
          setError(undefined);
        }
      } catch (caught) {
        if (!stopped) setError(caught instanceof Error ? caught.message : String(caught));
      }
      if (!stopped) timer = window.setTimeout(() => void load(), everyMs);
    };
    void load();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [everyMs]);
  return { rows, error };
}

export function TaskList() {
  const { rows, error } = useTaskRows(2000);
  const now = Date.now();
  return (
    <section class="tasks" aria-label="Tasks">
      <div class="list-head">
        <h1>Tasks</h1>
        <a class="button primary" href="#/new">
          New task
        </a>
      </div>
      {error !== undefined && <div class="error">{error}</div>}
      {rows === undefined ? (
        <div class="muted">…</div>
      ) : rows.length === 0 ? (
        <div class="muted">No tasks yet.</div>
      ) : (
        <ul class="task-rows">
          {rows.map((row) => (
            <li key={row.taskId} data-task={row.taskId} data-status={shownStatus(row.status, row.running)}>
              <a href={`#/task/${encodeURIComponent(row.taskId)}`}>
                <span class="row-top">
                  <span class={`badge s-${shownStatus(row.status, row.running)}`}>{shownStatus(row.status, row.running)}</span>
                  {openAskOf(row.openAsk) !== false && <span class="tag ask-tag">waiting for you</span>}
                  <span class="row-title">{row.title || row.taskId}</span>
                </span>
                <span class="row-meta">
                  <span title={row.workspace}>{folderName(row.workspace)}</span>
                  <span>{formatCost(row.cost)}</span>
                  <span>
                    {formatTokens(row.tokensIn)}↑ {formatTokens(row.tokensOut)}↓
                  </span>
                  <span>{formatAge(row.updatedAt, now)}</span>
                </span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
