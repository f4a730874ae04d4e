/**
 * While cairn runs a task, another process of the same user (an unconfined
 * command, anything) reads cairn's /proc entries: the key is not there.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { makeSandbox, startCli, type Sandbox } from "../cli/test-support/cli-harness.js";
import { startScriptedServer, type ScriptedServer } from "../llm/scripted/server.js";

let sandbox: Sandbox | undefined;
let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  await sandbox?.cleanup();
});

describe.runIf(process.platform === "linux")("the key while a task runs", () => {
  it("is neither in /proc/<cairn>/environ nor in /proc/<cairn>/cmdline, given in the environment or as --api-key", async () => {
    sandbox = await makeSandbox();
    // The answer stalls after its first frame: the task is mid-request while its /proc entries are read.
    server = await startScriptedServer({ scenario: { turns: [{ text: "Looking at it", stallAfterChunks: 1 }] } });
    const key = "sk-ant-canary-running-key-8c2f";
    for (const [args, env] of [
      [[], { ANTHROPIC_API_KEY: key }],
      [["--api-key", key], {}],
    ] as const) {
      const run = startCli(["run", "--provider", "anthropic", "--base-url", server.url, ...args, "--yes", "look around"], { env: { ...sandbox.env, ...env }, cwd: sandbox.workspace });
      const before = server.requests.length;
      while (server.requests.length === before) await new Promise((resolve) => setTimeout(resolve, 20));
      const pid = run.child.pid ?? 0;
      const environ = readFileSync(`/proc/${pid}/environ`, "latin1");
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "latin1");
      run.child.kill("SIGTERM");
      await run.exit;
      expect(environ.includes(key), "key in environ").toBe(false);
      expect(cmdline.includes(key), "key in cmdline").toBe(false);
    }
  }, 60_000);
});
