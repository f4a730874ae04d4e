/** How background processes are described: to the model, in the panel, by `/ps`, in a headless run's result. */
import type { BackgroundProcessInfo } from "./process-table.js";

/** `4 s`, `3 min 12 s`, `2 h 5 min`. */
export function describeDuration(milliseconds: number): string {
  const seconds = Math.max(0, Math.floor(milliseconds / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** `exited with code 1 after 3 s`, `was stopped after 2 min 4 s`. */
export function describeProcessEnd(process: BackgroundProcessInfo): string {
  const ran = describeDuration((process.endedAt ?? Date.now()) - process.startedAt);
  if (process.state === "stopped") return `was stopped after ${ran}`;
  if (process.state === "exited") return process.exitCode === null ? `ended (killed by a signal) after ${ran}` : `exited with code ${process.exitCode} after ${ran}`;
  return `has run for ${ran}`;
}

/** One line: `p1  running 12 s  node server.js  · listening on 4000`. */
export function processRow(process: BackgroundProcessInfo, now = Date.now()): string {
  const state = process.state === "running" ? `running ${describeDuration(now - process.startedAt)}` : process.state === "stopped" ? "stopped" : `exited ${process.exitCode ?? "(signal)"}`;
  const last = process.lastLine === "" ? "" : `  · ${process.lastLine}`;
  return `${process.id}  ${state}  ${process.command}${last}`;
}

/** The environment details' section: what runs, and what ended since the model last saw the list. */
export function processSection(processes: readonly BackgroundProcessInfo[], now = Date.now()): string | undefined {
  if (processes.length === 0) return undefined;
  const lines = processes.map((process) => {
    const state = process.state === "running" ? `running for ${describeDuration(now - process.startedAt)}` : describeProcessEnd(process);
    return `- ${process.id} (${state}): ${process.command}${process.lastLine === "" ? "" : `\n  last line: ${process.lastLine}`}`;
  });
  return ["# Background processes", ...lines, "(read_process_output reads one's output; stop_process ends one.)"].join("\n");
}

/** Said to a resumed task whose earlier background processes did not survive. */
export const endedBeforeResumeNote =
  "# Background processes\nProcesses this task started in the background before it was resumed are no longer running (cairn ended them when the earlier run ended). Start them again if you need them.";
