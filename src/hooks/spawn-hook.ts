/**
 * The one place a hook process is started. Everything that runs a hook comes
 * through here, so the environment it gets and the sandbox it runs in are
 * decided in one function.
 */
import { spawn } from "node:child_process";
import { launchProcess, type LaunchPolicy } from "../security/process-launch.js";

export interface HookProcessRequest {
  /** A shell command line (a path to an executable is one too). */
  command: string;
  cwd: string;
  /** Written to the hook's standard input (the JSON payload). */
  input: string;
  timeoutMs: number;
  /** Aborting kills the hook's whole process group. */
  signal?: AbortSignal;
  /** Extra variables for the hook (e.g. `CLAUDE_PROJECT_DIR`). */
  env?: Record<string, string>;
  /** Characters kept of each of stdout and stderr. */
  outputLimit?: number;
  shell?: string;
  /** The scrubbed environment and the sandbox every child process gets (src/security). */
  launchPolicy?: LaunchPolicy;
  /** Files the command runs that stay readable in the sandbox wherever they are (only ever the user's own hook scripts). */
  visible?: readonly string[];
}

export interface HookProcessResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  cancelled: boolean;
  /** Output past the limit was dropped. */
  truncated: boolean;
  /** The process could not be started at all. */
  spawnError?: string;
  durationMs: number;
}

export const defaultHookOutputLimit = 64_000;

export function spawnHook(request: HookProcessRequest): Promise<HookProcessResult> {
  const started = Date.now();
  const limit = request.outputLimit ?? defaultHookOutputLimit;
  const shell = request.shell ?? process.env["SHELL"] ?? "/bin/sh";
  return new Promise((resolve) => {
    if (request.signal?.aborted) {
      resolve({ exitCode: null, stdout: "", stderr: "", timedOut: false, cancelled: true, truncated: false, durationMs: 0 });
      return;
    }
    let launch;
    try {
      // Secrets scrubbed from its environment (the hook's own variables added after), in the sandbox when one is on.
      launch = launchProcess({
        policy: request.launchPolicy,
        program: shell,
        args: ["-c", request.command],
        cwd: request.cwd,
        ...(request.env ? { extraEnv: request.env } : {}),
        ...(request.visible === undefined ? {} : { visible: request.visible }),
      });
    } catch (error) {
      resolve({ exitCode: null, stdout: "", stderr: "", timedOut: false, cancelled: false, truncated: false, spawnError: error instanceof Error ? error.message : String(error), durationMs: 0 });
      return;
    }
    // Its own process group, so a timeout or an abort ends the children it started too.
    const child = spawn(launch.file, launch.args, { cwd: request.cwd, detached: true, stdio: ["pipe", "pipe", "pipe"], env: launch.env });
    const sandboxed = launch.file === "bwrap";
    let stdout = "";
    let stderr = "";
    let truncated = false;
    let timedOut = false;
    let cancelled = false;
    let spawnError: string | undefined;
    const keep = (current: string, data: Buffer): string => {
      if (current.length >= limit) {
        truncated = true;
        return current;
      }
      const next = current + data.toString("utf8");
      if (next.length > limit) truncated = true;
      return next.slice(0, limit);
    };
    child.stdout.on("data", (data: Buffer) => (stdout = keep(stdout, data)));
    child.stderr.on("data", (data: Buffer) => (stderr = keep(stderr, data)));
    child.stdin.on("error", () => undefined); // a hook need not read its input
    child.stdin.end(request.input);
    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, request.timeoutMs);
    const onAbort = (): void => {
      cancelled = true;
      killGroup();
    };
    request.signal?.addEventListener("abort", onAbort, { once: true });
    let settled = false;
    const finish = (exitCode: number | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      launch.release();
      request.signal?.removeEventListener("abort", onAbort);
      // bubblewrap reports its own failures (a mount it cannot make) as `bwrap: ...` with a non-zero exit: the hook never ran.
      if (sandboxed && exitCode !== 0 && spawnError === undefined && stderr.startsWith("bwrap:")) {
        spawnError = `the sandbox could not start it: ${stderr.split("\n")[0] ?? ""}`;
      }
      resolve({
        exitCode,
        stdout,
        stderr,
        timedOut,
        cancelled,
        truncated,
        ...(spawnError === undefined ? {} : { spawnError }),
        durationMs: Date.now() - started,
      });
    };
    child.on("error", (error) => {
      spawnError = error.message;
      finish(null);
    });
    // `close` waits for the pipes; a hook that leaves a child holding them open
    // is still bounded by the timeout, which kills the whole group.
    child.on("close", (code) => finish(code));
  });
}
