/**
 * The background processes in the environment details (#31): each request
 * lists the processes running, and once each one that ended since. A resumed
 * task that had started some is told, once, that they no longer run.
 */
import type { UiMessage } from "../../task/contracts/messages.js";
import type { ProcessTable } from "./process-table.js";
import { endedBeforeResumeNote, processSection } from "./process-text.js";

/** Whether a task's messages show a command started in the background. */
export function startedBackgroundProcesses(messages: readonly UiMessage[]): boolean {
  return messages.some((message) => (message.type === "say" ? message.say === "command" : message.ask === "command") && message.meta?.["background"] === true);
}

export function processReporter(options: { table: ProcessTable; resumedWithProcesses: boolean }): () => string | undefined {
  const reportedEnds = new Set<string>();
  let resumeNoted = !options.resumedWithProcesses;
  return () => {
    const shown = options.table.list().filter((process) => process.state === "running" || !reportedEnds.has(process.id));
    for (const process of shown) if (process.state !== "running") reportedEnds.add(process.id);
    const section = processSection(shown);
    if (resumeNoted) return section;
    resumeNoted = true;
    return [endedBeforeResumeNote, ...(section === undefined ? [] : [section])].join("\n\n");
  };
}
