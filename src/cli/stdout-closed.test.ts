import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedServer } from "../llm/scripted/server.js";
import type { ScriptedServer } from "../llm/scripted/server.js";
import { cairnBin, makeSandbox } from "./test-support/cli-harness.js";
import type { Sandbox } from "./test-support/cli-harness.js";

let sandbox: Sandbox;
let server: ScriptedServer | undefined;

beforeEach(async () => {
  sandbox = await makeSandbox();
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await sandbox.cleanup();
});

/** A zombie (ended, not yet reaped by an init that may never reap it) counts as gone. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** Runs `cairn ARGS | head -n 3` in bash; resolves with cairn's own exit status and its stderr. */
function runPipedToHead(args: string[]): Promise<{ status: number; stderr: string; head: string }> {
  const quoted = [process.execPath, cairnBin, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(" ");
  const script = `${quoted} 2>"$STDERR_FILE" | head -n 3; echo "$\{PIPESTATUS[0]}" >"$STATUS_FILE"`;
  const stderrFile = join(sandbox.root, "stderr.txt");
  const statusFile = join(sandbox.root, "status.txt");
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", script], {
      cwd: sandbox.workspace,
      env: { ...sandbox.env, STDERR_FILE: stderrFile, STATUS_FILE: statusFile },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let head = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (data: string) => (head += data));
    child.on("error", reject);
    child.on("exit", () => {
      void (async () => {
        resolve({ status: Number((await readFile(statusFile, "utf8")).trim()), stderr: await readFile(stderrFile, "utf8"), head });
      })().catch(reject);
    });
  });
}

describe("#11 item 2: cairn run --json | head -n 3", () => {
  it("a closed stdout stops the task as SIGTERM does: resumable, lock released, the command's processes ended, no stack trace", async () => {
    const pidFile = join(sandbox.root, "ticker.pid");
    const ticker = `sh -c 'echo $$ > ${pidFile}; while true; do echo tick; sleep 0.1; done'`;
    server = await startScriptedServer({
      scenario: {
        turns: [
          { toolCalls: [{ id: "call_0", name: "execute_command", arguments: { command: ticker, requires_approval: false } }] },
          { toolCalls: [{ id: "call_1", name: "attempt_completion", arguments: { result: "never reached" } }] },
        ],
      },
    });
    const result = await runPipedToHead([
      "run",
      "--json",
      "--yes",
      "--tool-protocol",
      "native",
      "--provider",
      "anthropic",
      "--base-url",
      server.url,
      "--api-key",
      "k",
      "--model",
      "claude-sonnet-5-5",
      "tick forever",
    ]);
    expect(result.head.trim().split("\n")).toHaveLength(3);
    expect(result.stderr).not.toMatch(/EPIPE|Unhandled|\n\s+at /);
    expect(result.status).toBe(130);
    const tasks = await readdir(join(sandbox.dataDir, "tasks"));
    expect(tasks).toHaveLength(1);
    const taskDir = join(sandbox.dataDir, "tasks", tasks[0]!);
    expect(existsSync(join(taskDir, "lock"))).toBe(false);
    const log = await readFile(join(taskDir, "log.jsonl"), "utf8");
    expect(log).toMatch(/"status":"aborted"/);
    const tickerPid = Number((await readFile(pidFile, "utf8")).trim());
    const deadline = Date.now() + 5_000;
    while (isAlive(tickerPid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(isAlive(tickerPid)).toBe(false);
  }, 30_000);
});
