import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedServer } from "../llm/scripted/server.js";
import type { ScriptedServer } from "../llm/scripted/server.js";
import { makeSandbox, runCli } from "./test-support/cli-harness.js";
import type { Sandbox } from "./test-support/cli-harness.js";

let sandbox: Sandbox;
let server: ScriptedServer | undefined;
const leftovers: number[] = [];

beforeEach(async () => {
  sandbox = await makeSandbox();
});

afterEach(async () => {
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone, as it should be
    }
  }
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

describe("#11 item 3 end to end: no process of a command is left after cairn exits", () => {
  it("a background child and a setsid'd one started by execute_command are gone when cairn exits", async () => {
    const command = `sleep 300 > /dev/null 2>&1 & echo $! > ${sandbox.root}/bg.pid; setsid sleep 301 > /dev/null 2>&1 & echo $! > ${sandbox.root}/sid.pid; sleep 0.3`;
    server = await startScriptedServer({
      scenario: {
        turns: [
          { toolCalls: [{ id: "call_0", name: "execute_command", arguments: { command, requires_approval: false } }] },
          { toolCalls: [{ id: "call_1", name: "attempt_completion", arguments: { result: "started a server" } }] },
        ],
      },
    });
    const result = await runCli(
      ["run", "--json", "--yes", "--tool-protocol", "native", "--provider", "anthropic", "--base-url", server.url, "--api-key", "k", "--model", "claude-sonnet-5-5", "serve"],
      { env: sandbox.env, cwd: sandbox.workspace },
    );
    expect(result.status).toBe(0);
    const pids = await Promise.all(["bg.pid", "sid.pid"].map(async (file) => Number((await readFile(join(sandbox.root, file), "utf8")).trim())));
    leftovers.push(...pids);
    expect(pids.filter(isAlive)).toEqual([]);
  }, 30_000);
});
