/**
 * The terminal UI's background processes (#31): one table for the whole UI,
 * so a process the user keeps outlives its task; `/ps` and `/kill`; the ask at
 * the end of a task; everything ended when the UI quits.
 */
import type { TuiHost } from "../ui/tui/tui-host.js";
import type { ProcessTable } from "../tools/process/process-table.js";
import { describeProcessEnd, processRow } from "../tools/process/process-text.js";

/**
 * At the end of a task (not an interruption: Esc leaves them running for the next message),
 * its running processes are ended unless the user keeps them.
 */
export async function askToKeepProcesses(options: { host: TuiHost; table: ProcessTable; taskId: string; signal: AbortSignal }): Promise<string | undefined> {
  const running = options.table.running(options.taskId);
  if (running.length === 0) return undefined;
  const names = running.map((process) => `${process.id} (${process.command})`).join(", ");
  const one = running.length === 1;
  const answer = await options.host
    .answerAsk(
      {
        type: "ask",
        ask: "resume_task",
        id: `processes-${options.taskId}-${Date.now()}`,
        ts: Date.now(),
        partial: false,
        text: `The task ended; background process${one ? "" : "es"} ${names} ${one ? "is" : "are"} still running.`,
        meta: { question: `Keep ${one ? "it" : "them"} running? (No ends ${one ? "it" : "them"}; /kill ID ends one later.)` },
      },
      options.signal,
    )
    .catch(() => ({ response: "no" as const }));
  if (answer.response === "yes") return `Kept running: ${names}. /ps lists background processes, /kill ID ends one.`;
  const ended = await options.table.stopAll(options.taskId);
  return `Ended ${ended.map((process) => process.id).join(", ")}.`;
}

/** `/ps`: every background process of this UI, running or ended. */
export function processReport(table: ProcessTable): string {
  const all = table.list();
  if (all.length === 0) return "No background processes. A command the model starts with background true runs on and is listed here.";
  return ["Background processes (/kill ID ends one):", ...all.map((process) => `  ${processRow(process)}`)].join("\n");
}

/** `/kill ID`. */
export async function killProcess(table: ProcessTable, id: string): Promise<string> {
  if (id === "") return "Usage: /kill ID (the ids are listed by /ps)";
  const found = table.get(id);
  if (found === undefined) return `No background process ${id}. /ps lists them.`;
  if (found.state !== "running") return `${found.id} (${found.command}) already ${describeProcessEnd(found)}.`;
  const stopped = await table.stop(found.id);
  return `Ended ${found.id} (${found.command}), which ${describeProcessEnd({ ...(stopped ?? found), state: "running" })}.`;
}
