/**
 * The `SubagentStop` hook (issue #17): when a subagent ends, the user's
 * configured command runs in the workspace with a JSON payload on standard
 * input (hook, parent task id, subagent id, its task id, agent type, status,
 * result), under the same launch policy as every command (scrubbed
 * environment, sandbox), bounded by a timeout. Its outcome is shown in the
 * parent task as a `hook_status` message.
 */
import { spawn } from "node:child_process";
import type { LaunchPolicy } from "../security/process-launch.js";
import { launchShell } from "../security/process-launch.js";

export interface SubagentStopPayload {
  taskId: string;
  subagentId: string;
  childTaskId: string;
  agent: string;
  status: string;
  result?: string;
}

export function runSubagentStopHook(options: {
  command: string;
  cwd: string;
  launchPolicy: LaunchPolicy | undefined;
  payload: SubagentStopPayload;
  onStatus: (text: string, meta: Record<string, unknown>) => void;
  timeoutMs?: number;
}): Promise<void> {
  const shell = process.env["SHELL"] ?? "/bin/sh";
  return new Promise((resolve) => {
    let launch;
    try {
      launch = launchShell({ policy: options.launchPolicy, shell, command: options.command, cwd: options.cwd });
    } catch (error) {
      options.onStatus(`SubagentStop hook could not start: ${error instanceof Error ? error.message : String(error)}`, { hook: "SubagentStop", exitCode: null });
      resolve();
      return;
    }
    const child = spawn(launch.file, launch.args, { cwd: options.cwd, detached: true, stdio: ["pipe", "pipe", "pipe"], env: launch.env });
    let output = "";
    let timedOut = false;
    const collect = (data: Buffer): void => {
      if (output.length < 64_000) output += data.toString("utf8");
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.stdin.on("error", () => undefined);
    child.stdin.end(JSON.stringify({ hook: "SubagentStop", ...options.payload }));
    const timer = setTimeout(() => {
      timedOut = true;
      // The hook's whole process group goes.
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    }, options.timeoutMs ?? 30_000);
    const finish = (exitCode: number | null): void => {
      clearTimeout(timer);
      const state = timedOut ? "timed out" : `exited with ${exitCode ?? "no status"}`;
      const trimmed = output.trim();
      options.onStatus(`SubagentStop hook (${options.payload.subagentId}) ${state}${trimmed ? `: ${trimmed}` : ""}`, { hook: "SubagentStop", subagentId: options.payload.subagentId, exitCode, timedOut, output: trimmed });
      resolve();
    };
    child.on("error", (error) => {
      output += error.message;
      finish(null);
    });
    child.on("close", (code) => finish(code));
  });
}
