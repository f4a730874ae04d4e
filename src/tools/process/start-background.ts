/**
 * `execute_command` with `background: true` (issue #31): the command starts
 * as any command does (approved the same way, in the same sandbox, with its
 * own command token) and the call returns once its first output settled, with
 * the process id the model reads it and stops it by.
 */
import { setTimeout as delay } from "node:timers/promises";
import { launchShell, type Launch } from "../../security/process-launch.js";
import type { ToolOutcome } from "../../task/contracts/tool-executor.js";
import { success, toolError, withApprovalFeedback } from "../responses.js";
import type { ToolRuntime } from "../tool-definition.js";
import type { ProcessTable } from "./process-table.js";
import { describeProcessEnd } from "./process-text.js";

/** What the tools need of the background processes: the table, and where this task's logs go. */
export interface ProcessPort {
  table: ProcessTable;
  taskId: string;
  /** The task's data folder for process logs (`<dataDir>/tasks/<id>/processes`). */
  logFolder: string;
}

/** Longest wait for the first output; once output came, a quiet spell this long ends the wait sooner. */
export const settleMs = 2000;
const quietMs = 500;

export async function startInBackground(options: { runtime: ToolRuntime; command: string; unsandboxed: boolean; feedback: string | undefined }): Promise<ToolOutcome> {
  const { runtime, command } = options;
  const port = runtime.options.processes;
  if (port === undefined) return toolError("background commands are not available here; run the command without background (with a timeout).");
  const policy = runtime.options.launchPolicy;
  let launch: Launch;
  try {
    launch = launchShell({ policy: options.unsandboxed && policy !== undefined ? { ...policy, sandbox: undefined } : policy, shell: runtime.options.shell, command, cwd: runtime.guard.root });
  } catch (error) {
    return toolError(error instanceof Error ? error.message : String(error));
  }
  const started = port.table.start({
    command,
    cwd: runtime.guard.root,
    launch,
    logFolder: port.logFolder,
    taskId: port.taskId,
    keepChildren: runtime.options.keepBackgroundProcesses,
    onEnd: () => void launch.release(),
  });
  await settle(port.table, started.id);
  const now = port.table.get(started.id) ?? started;
  const output = port.table.readNew(started.id) ?? { text: "", omitted: 0 };
  const pid = now.pid === undefined ? "" : ` (pid ${now.pid})`;
  runtime.context.say("info", `⏵ ${now.id} runs in the background${pid}: ${command}`);
  if (output.text !== "") runtime.context.say("command_output", output.text, { partial: false, key: `${runtime.callId}:output` });
  const lines = [`Command: ${command}`];
  if (now.state === "running") {
    lines.push(`Started in the background as process ${now.id}${pid}. It keeps running while you work, and is ended when the task ends.`);
  } else {
    lines.push(`Started in the background as process ${now.id}${pid}, but it already ${describeProcessEnd(now)}.`);
  }
  lines.push(output.text === "" ? "It printed no output yet." : `Output so far:\n${output.text}`);
  if (now.state === "running") lines.push(`Read its new output with read_process_output (process_id ${now.id}); end it with stop_process. Running processes are listed in the environment details.`);
  return withApprovalFeedback(success(lines.join("\n")), options.feedback);
}

/** Waits until the first output has come and gone quiet, the process ended, or `settleMs` passed. */
async function settle(table: ProcessTable, id: string): Promise<void> {
  const deadline = Date.now() + settleMs;
  let lastSize = -1;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    const info = table.get(id);
    if (info === undefined || info.state !== "running") return;
    const size = table.logSize(id);
    if (size !== lastSize) {
      lastSize = size;
      quietSince = Date.now();
    } else if (size > 0 && Date.now() - quietSince >= quietMs) return;
    await delay(50);
  }
}
