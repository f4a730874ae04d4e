/** The fleet's queue (`GET /api/fleet`, with `cairn serve --redis`); nothing at all when the server has no fleet. */
import { useEffect, useState } from "preact/hooks";
import { api } from "../api.js";

type Job = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === "string" || typeof value === "number" ? String(value) : undefined);
const label = (job: Job): string => text(job["title"]) ?? text(job["prompt"]) ?? text(job["name"]) ?? text(job["id"]) ?? "job";

export function Fleet() {
  const [fleet, setFleet] = useState<Record<string, unknown> | undefined>(undefined);
  useEffect(() => {
    let timer: number | undefined;
    let stopped = false;
    const load = async (): Promise<void> => {
      const loaded = await api.fleet().catch(() => undefined);
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
  const groups = Object.entries(fleet).filter((entry): entry is [string, Job[]] => Array.isArray(entry[1]));
  return (
    <section class="panel fleet" aria-label="Fleet queue">
      <h2>Fleet queue</h2>
      {groups.map(([name, jobs]) => (
        <div key={name}>
          <h3>
            {name} <span class="muted">{jobs.length}</span>
          </h3>
          <ul>
            {jobs.slice(0, 50).map((job, index) => (
              <li key={text(job["id"]) ?? index}>
                {label(job)} {typeof job["status"] === "string" && <span class="muted">{job["status"]}</span>}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
