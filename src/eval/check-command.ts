/** The case's check (e.g. the project's tests), run in the finished workspace in its own process group. */
import { spawn } from "node:child_process";

export interface CheckOutcome {
  exitCode: number | null;
  timedOut: boolean;
  output: string;
}

export function runCheck(options: { command: string; cwd: string; timeoutMs: number }): Promise<CheckOutcome> {
  return new Promise((resolve) => {
    const child = spawn("sh", ["-c", options.command], { cwd: options.cwd, detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, CI: "true" } });
    let output = "";
    const keep = (data: Buffer): void => {
      output = (output + data.toString("utf8")).slice(-8000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }, options.timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code, timedOut, output });
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ exitCode: null, timedOut, output: error.message });
    });
  });
}
