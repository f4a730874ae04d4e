import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isAlive } from "../tools/test-support/processes.js";
import { cairnBin } from "./test-support/cli-harness.js";
import { useCliFixture } from "./test-support/cli-fixture.js";

const cli = useCliFixture();

/**
 * Runs `cairn ARGS | head -n 3` in bash, where the reader goes away once the command's output has come
 * (on a loaded machine three lines can come before the command starts); resolves with cairn's own exit
 * status and its stderr.
 */
function runPipedToHead(args: string[]): Promise<{ status: number; stderr: string; head: string }> {
  const quoted = [process.execPath, cairnBin, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(" ");
  const script = `${quoted} 2>"$STDERR_FILE" | { head -n 3; grep -m1 -q tick; }; echo "$\{PIPESTATUS[0]}" >"$STATUS_FILE"`;
  const stderrFile = join(cli.sandbox.root, "stderr.txt");
  const statusFile = join(cli.sandbox.root, "status.txt");
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", script], {
      cwd: cli.sandbox.workspace,
      env: { ...cli.sandbox.env, STDERR_FILE: stderrFile, STATUS_FILE: statusFile },
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

describe("cairn run --json | head -n 3 stops the task cleanly", () => {
  it("a closed stdout stops the task as SIGTERM does: resumable, lock released, the command's processes ended, no stack trace", async () => {
    const pidFile = join(cli.sandbox.root, "ticker.pid");
    const ticker = `sh -c 'echo $$ > ${pidFile}; while true; do echo tick; sleep 0.1; done'`;
    const server = await cli.startServer({
      turns: [
        { toolCalls: [{ id: "call_0", name: "execute_command", arguments: { command: ticker, requires_approval: false } }] },
        { toolCalls: [{ id: "call_1", name: "attempt_completion", arguments: { result: "never reached" } }] },
      ],
    });
    const result = await runPipedToHead([
      "run",
      "--json",
      "--yes",
      // The pid file lies outside the workspace (#14: --yes alone refuses writes there).
      "--allow-outside-writes",
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
    const tasks = await readdir(join(cli.sandbox.dataDir, "tasks"));
    expect(tasks).toHaveLength(1);
    const taskDir = join(cli.sandbox.dataDir, "tasks", tasks[0]!);
    expect(existsSync(join(taskDir, "lock"))).toBe(false);
    const log = await readFile(join(taskDir, "log.jsonl"), "utf8");
    expect(log).toMatch(/"status":"aborted"/);
    const tickerPid = Number((await readFile(pidFile, "utf8")).trim());
    const deadline = Date.now() + 5_000;
    while (isAlive(tickerPid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(isAlive(tickerPid)).toBe(false);
  }, 30_000);
});

/** Runs `cairn ARGS | true` in bash: the reader is gone before cairn writes. Resolves with cairn's exit status and stderr. */
function runIntoGoneReader(args: string[], redirect = ""): Promise<{ status: number; stderr: string }> {
  const quoted = [process.execPath, cairnBin, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(" ");
  const tail = redirect === "" ? `2>"$STDERR_FILE" | true; echo "$\{PIPESTATUS[0]}"` : `${redirect} 2>"$STDERR_FILE"; echo $?`;
  const stderrFile = join(cli.sandbox.root, "gone-reader-stderr.txt");
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", `${quoted} ${tail}`], { cwd: cli.sandbox.workspace, env: { ...cli.sandbox.env, STDERR_FILE: stderrFile }, stdio: ["ignore", "pipe", "inherit"] });
    let status = "";
    child.stdout.setEncoding("utf8").on("data", (data: string) => (status += data));
    child.on("error", reject);
    child.on("exit", () => {
      void readFile(stderrFile, "utf8").then((stderr) => resolve({ status: Number(status.trim()), stderr }), reject);
    });
  });
}

describe("any command's output may be cut short", () => {
  it("`cairn --version`, `--help`, `history`, `mcp list` and `checkpoints --help` into a reader that has gone: no trace, the command's own status", async () => {
    for (const args of [["--version"], ["--help"], ["history"], ["mcp", "list"], ["checkpoints", "--help"]]) {
      const result = await runIntoGoneReader(args);
      expect({ args, ...result }).toEqual({ args, status: 0, stderr: "" });
    }
  }, 30_000);

  it("output that cannot be written (a full disk behind a redirect) fails the command with a clear line", async () => {
    const result = await runIntoGoneReader(["history"], ">/dev/full");
    expect(result.status).toBe(1);
    expect(result.stderr).toBe("cairn: cannot write to stdout (ENOSPC: no space left on device, write)\n");
  });
});
