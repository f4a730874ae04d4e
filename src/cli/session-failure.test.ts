import { existsSync } from "node:fs";
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./test-support/cli-harness.js";
import { useCliFixture } from "./test-support/cli-fixture.js";

const cli = useCliFixture();

describe("a session that cannot be created releases what it opened", () => {
  it("an invalid mcp.json: a clear error, and the task's lock is released", async () => {
    const server = await cli.startServer({ turns: [{ text: "unused" }] });
    await writeFile(join(cli.sandbox.configDir, "cairn", "mcp.json"), JSON.stringify({ mcpServers: { broken: { command: 42 } } }));
    const result = await runCli(["run", "--yes", "--provider", "anthropic", "--base-url", server.url, "--api-key", "k", "--model", "claude-sonnet-5-5", "task"], {
      env: cli.sandbox.env,
      cwd: cli.sandbox.workspace,
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/mcp\.json/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const tasksDir = join(cli.sandbox.dataDir, "tasks");
    const tasks = existsSync(tasksDir) ? await readdir(tasksDir) : [];
    for (const task of tasks) expect(existsSync(join(tasksDir, task, "lock"))).toBe(false);
  });
});
