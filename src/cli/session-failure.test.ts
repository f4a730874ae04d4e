import { existsSync } from "node:fs";
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedServer } from "../llm/scripted/server.js";
import type { ScriptedServer } from "../llm/scripted/server.js";
import { makeSandbox, runCli } from "./test-support/cli-harness.js";
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

describe("#11 item 6: a session that cannot be created releases what it opened", () => {
  it("an invalid mcp.json: a clear error, and the task's lock is released", async () => {
    server = await startScriptedServer({ scenario: { turns: [{ text: "unused" }] } });
    await writeFile(join(sandbox.configDir, "cairn", "mcp.json"), JSON.stringify({ mcpServers: { broken: { command: 42 } } }));
    const result = await runCli(["run", "--yes", "--provider", "anthropic", "--base-url", server.url, "--api-key", "k", "--model", "claude-sonnet-5-5", "task"], {
      env: sandbox.env,
      cwd: sandbox.workspace,
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/mcp\.json/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const tasksDir = join(sandbox.dataDir, "tasks");
    const tasks = existsSync(tasksDir) ? await readdir(tasksDir) : [];
    for (const task of tasks) expect(existsSync(join(tasksDir, task, "lock"))).toBe(false);
  });
});
