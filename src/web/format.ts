/** Numbers and times as the web UI shows them (tokens and cost as the terminal UI shows them). */
export { formatCost, formatTokens } from "../ui/tui/terminal-text.js";

/** A time as milliseconds since the epoch, from a number or an ISO string. */
export function timeOf(value: number | string): number {
  return typeof value === "number" ? value : Date.parse(value);
}

/** How long ago `then` was, in one short unit: `now`, `42 s`, `5 min`, `3 h`, `2 d`. */
export function formatAge(then: number | string, now: number): string {
  const seconds = Math.max(0, Math.round((now - timeOf(then)) / 1000));
  if (!Number.isFinite(seconds)) return "";
  if (seconds < 5) return "now";
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}

/** The last folder of a path, for narrow screens. */
export function folderName(path: string): string {
  const parts = path.split(/[\\/]/).filter((part) => part !== "");
  return parts.at(-1) ?? path;
}

/** A command's end as a short line (`exit 0 · 1.2 s`). */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Each line of a unified diff with its kind, for colouring. */
export function diffLines(diff: string): Array<{ kind: "add" | "del" | "hunk" | "file" | "same"; text: string }> {
  return diff.split("\n").map((text) => {
    if (text.startsWith("+++") || text.startsWith("---") || text.startsWith("diff ") || text.startsWith("index ")) return { kind: "file", text };
    if (text.startsWith("@@")) return { kind: "hunk", text };
    if (text.startsWith("+")) return { kind: "add", text };
    if (text.startsWith("-")) return { kind: "del", text };
    return { kind: "same", text };
  });
}

/**
 * A task's status as shown: a task whose log says running but that no process
 * runs (its server or terminal died) is `interrupted`, and can be resumed.
 */
export function shownStatus(status: string, running: boolean): string {
  if (running) return "running";
  return status === "running" ? "interrupted" : status;
}
