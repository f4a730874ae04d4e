/** The fleet's queue (`GET /api/fleet`, with `cairn serve --redis`): counts and the running jobs; nothing at all when the server has no fleet. */
import { useEffect, useState } from "preact/hooks";
import { api } from "../api.js";
import { formatCost } from "../format.js";

interface FleetJob {
  id: string;
  name?: string;
  task?: string;
  repo?: string;
  status?: string;
  worker?: string;
  cost?: number;
}

interface FleetView {
  queue?: string;
  counts?: Record<string, number>;
  running?: FleetJob[];
}

export function Fleet() {
  const [fleet, setFleet] = useState<FleetView | undefined>(undefined);
  useEffect(() => {
    let timer: number | undefined;
    let stopped = false;
    const load = async (): Promise<void> => {
      const loaded = (await api.fleet().catch(() => undefined)) as FleetView | undefined;
      if (stopped) return;
      setFleet(loaded);
      // No fleet (404): asked again only when the page is opened again.
      if (loaded !== undefined) timer = window.setTimeout(() => void load(), 5000);
    };
    void load();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, []);
  if (fleet === undefined) return null;
  return (
    <section class="panel fleet" aria-label="Fleet queue">
      <h2>Fleet queue {fleet.queue !== undefined && <span class="muted">{fleet.queue}</span>}</h2>
      <div class="row-meta">
        {Object.entries(fleet.counts ?? {}).map(([name, count]) => (
          <span key={name}>
            {name} {count}
          </span>
        ))}
      </div>
      {(fleet.running ?? []).length > 0 && (
        <ul>
          {(fleet.running ?? []).map((job) => (
            <li key={job.id}>
              {job.name ?? job.task ?? job.id} <span class="muted">{[job.status, job.worker, job.cost === undefined ? undefined : formatCost(job.cost)].filter((part) => part !== undefined).join(" · ")}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
