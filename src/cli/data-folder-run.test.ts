import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import { anthropicArgs } from "./test-support/cli-fixture.js";
import { useTerminalFixture } from "./test-support/terminal-fixture.js";

const cli = useTerminalFixture();

/** A HOME whose ~/.cairn cannot be created (its parent is a file; as root, permissions would not stop mkdir). */
async function unusableHome(root: string): Promise<{ home: string; dataDir: string }> {
  await writeFile(join(root, "not-a-folder"), "");
  const home = join(root, "not-a-folder", "home");
  return { home, dataDir: join(home, ".cairn") };
}

describe("a data folder that cannot be created (read-only or missing HOME)", () => {
  it("cairn run names the folder and how to choose another, exit 2", async () => {
    const server = await cli.startServer({ turns: [{ text: "<attempt_completion>\n<result>ok</result>\n</attempt_completion>" }] });
    const { home, dataDir } = await unusableHome(cli.sandbox.root);
    const env: NodeJS.ProcessEnv = { ...cli.sandbox.env, HOME: home };
    delete env["CAIRN_HOME"];
    const { runCli } = await import("./test-support/cli-harness.js");
    const result = await runCli(["run", "--yes", ...anthropicArgs(server), "say hi"], { env, cwd: cli.sandbox.workspace });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`the data folder ${dataDir} cannot be created`);
    expect(result.stderr).toContain("CAIRN_HOME=<folder> or --data-dir <folder>");
    expect(result.stderr).not.toMatch(/^cairn: ENOTDIR/m);
    expect(server.requests).toHaveLength(0);
  });

  it.skipIf(!tmuxAvailable())("the terminal UI says so before it opens, exit 2, and repeats the task given so that it is not lost", { timeout: 60_000 }, async () => {
    const server = await cli.startServer({ turns: [] });
    const { home, dataDir } = await unusableHome(cli.sandbox.root);
    const terminal = await cli.openCairn([...anthropicArgs(server), "write the report"], { env: { CAIRN_HOME: "", HOME: home }, columns: 400 });
    expect(await terminal.waitForExit({ timeoutMs: 30_000 })).toBe(2);
    const screen = (await terminal.captureAll()).replace(/\n/g, " ").replace(/\s+/g, " ");
    expect(screen).toContain(`the data folder ${dataDir} cannot be created`);
    expect(screen).toContain("--data-dir <folder>");
    expect(screen).toContain('cairn "write the report"');
  });
});
