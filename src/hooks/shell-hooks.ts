import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import type { TaskHooks } from "../task/contracts/seams.js";
import { launchShell, type LaunchPolicy } from "../security/process-launch.js";

export interface HookResult {
  hook: string;
  exitCode: number | null;
  output: string;
  timedOut: boolean;
  cancelled: boolean;
}

/**
 * Hooks configured by the user (`hooks: { "TaskStart": "cmd", "TaskCancel": "cmd" }`):
 * each runs in the user's shell in the workspace with the JSON payload on
 * standard input, bounded by a timeout and cancellable (the whole process group
 * is killed).
 */
export function createShellHooks(options: {
  hooks: Record<string, string>;
  cwd: string;
  timeoutMs?: number;
  shell?: string;
  onStatus?: (result: HookResult) => void;
  /** Scrubbed environment and sandbox (src/security, #14). */
  launchPolicy?: LaunchPolicy;
}): TaskHooks {
  const running = new Set<ChildProcess>();
  const cancelled = new WeakSet<ChildProcess>();
  const timeoutMs = options.timeoutMs ?? 30_000;
  const shell = options.shell ?? process.env["SHELL"] ?? "/bin/sh";

  const kill = (child: ChildProcess): void => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  };

  const run = (hook: string, payload: Record<string, unknown>): Promise<void> => {
    const command = options.hooks[hook];
    if (command === undefined) return Promise.resolve();
    return new Promise((resolve) => {
      let launch;
      try {
        launch = launchShell({ policy: options.launchPolicy, shell, command, cwd: options.cwd });
      } catch (error) {
        options.onStatus?.({ hook, exitCode: null, output: error instanceof Error ? error.message : String(error), timedOut: false, cancelled: false });
        resolve();
        return;
      }
      const child = spawn(launch.file, launch.args, { cwd: options.cwd, detached: true, stdio: ["pipe", "pipe", "pipe"], env: launch.env });
      running.add(child);
      let output = "";
      let timedOut = false;
      const collect = (data: Buffer): void => {
        if (output.length < 64_000) output += data.toString("utf8");
      };
      child.stdout.on("data", collect);
      child.stderr.on("data", collect);
      child.stdin.on("error", () => undefined);
      child.stdin.end(JSON.stringify({ hook, ...payload }));
      const timer = setTimeout(() => {
        timedOut = true;
        kill(child);
      }, timeoutMs);
      const finish = (exitCode: number | null): void => {
        clearTimeout(timer);
        running.delete(child);
        options.onStatus?.({ hook, exitCode, output: output.trim(), timedOut, cancelled: cancelled.has(child) });
        resolve();
      };
      child.on("error", (error) => {
        output += error.message;
        finish(null);
      });
      child.on("close", (code) => finish(code));
    });
  };

  return {
    taskStart: (payload) => run("TaskStart", payload),
    taskCancel: (payload) => run("TaskCancel", payload),
    cancelRunning: () => {
      for (const child of running) {
        cancelled.add(child);
        kill(child);
      }
    },
    hasTaskCancel: () => options.hooks["TaskCancel"] !== undefined,
  };
}
