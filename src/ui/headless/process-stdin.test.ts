import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { withoutSandboxNotice } from "../../cli/test-support/cli-harness.js";

const script = fileURLToPath(new URL("./test-support/ask-once.ts", import.meta.url));

interface Outcome {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the ask-once program; `feed` gets its stdin (or null when stdin is /dev/null). */
function runAskOnce(args: string[], feed: ((stdin: NodeJS.WritableStream) => void) | null): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
      stdio: [feed === null ? "ignore" : "pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += String(chunk);
      // Answer once the ask is on screen, as a person or a script would.
      if (feed !== null && child.stdin !== null && stdout.includes('"ask":"tool"')) {
        feed(child.stdin);
        feed = null;
      }
    });
    child.stderr!.on("data", (chunk: Buffer) => (stderr += String(chunk)));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

describe("HeadlessHost on a real process stdin", () => {
  it("reads the JSON answer and exits although stdin stays open", async () => {
    let keptOpen: NodeJS.WritableStream | undefined;
    const outcome = await runAskOnce(["json", "fail"], (stdin) => {
      stdin.write('{"id": "ask-1", "response": "yes"}\n');
      keptOpen = stdin;
    });
    keptOpen?.end();
    expect(withoutSandboxNotice(outcome.stderr)).toBe("");
    expect(outcome.stdout).toContain('ANSWER {"response":"yes"}');
    expect(outcome.status).toBe(0);
  });

  it("stdin closed with --on-ask fail: exit status 1 and a message naming the ask", async () => {
    const outcome = await runAskOnce(["json", "fail"], (stdin) => stdin.end());
    expect(outcome.status).toBe(1);
    expect(outcome.stderr).toContain('cairn: no answer to the "tool" ask (id ask-1): standard input is closed and --on-ask is fail.');
  });

  it("stdin at /dev/null with --on-ask deny: the tool is refused and the program ends", async () => {
    const outcome = await runAskOnce(["json", "deny"], null);
    expect(outcome.status).toBe(0);
    expect(outcome.stdout).toContain('ANSWER {"response":"no"}');
    expect(outcome.stderr).toContain('answered no to the "tool" ask (ask-1) automatically: standard input is closed; --on-ask deny');
  });
});
