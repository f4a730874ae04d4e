import { access, mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskStore } from "../store/task-store.js";
import { startCli } from "./test-support/cli-harness.js";
import { anthropicArgs, useCliFixture } from "./test-support/cli-fixture.js";

const fixture = useCliFixture();

const complete = { text: "<attempt_completion>\n<result>wrote a.txt</result>\n</attempt_completion>" };
const writeA = { text: "<write_to_file>\n<path>a.txt</path>\n<content>\nhello\n</content>\n</write_to_file>" };

describe("the workspace folder is deleted while a task runs", () => {
  it("cairn stops with a clear error, exit 1, does not recreate the folder, and the task resumes once it is back", { timeout: 90_000 }, async () => {
    const { workspace } = fixture.sandbox;
    const marker = join(workspace, "command-started");
    const server = await fixture.startServer({
      turns: [{ text: `<execute_command>\n<command>touch command-started; sleep 1.5</command>\n<requires_approval>false</requires_approval>\n</execute_command>` }, writeA, complete, writeA, complete],
    });
    const run = startCli(["run", "--yes", ...anthropicArgs(server), "write a.txt"], { env: fixture.sandbox.env, cwd: workspace });
    const deadline = Date.now() + 30_000;
    while (
      !(await access(marker).then(
        () => true,
        () => false,
      ))
    ) {
      if (Date.now() > deadline) throw new Error(`the command did not start:\n${run.stdout}\n${run.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await rm(workspace, { recursive: true, force: true });
    const status = await run.exit;
    const output = run.stdout + run.stderr;
    expect(output).toContain(`the workspace folder ${workspace} no longer exists`);
    expect(output).not.toMatch(/ENOENT|git is not installed/);
    expect(status).toBe(1);
    await expect(access(workspace)).rejects.toThrow(); // never recreated
    expect(server.requests).toHaveLength(1);

    const store = new TaskStore({ dataDir: fixture.sandbox.dataDir });
    const [row] = await store.list();
    expect(row).toBeDefined();
    expect(output).toContain(`cairn resume ${row!.taskId}`);
    await mkdir(workspace);
    const resumed = await fixture.run(["resume", "--yes", ...anthropicArgs(server), row!.taskId]);
    // Text mode's status lines are on stderr: none of them is an error.
    expect(resumed.stderr).not.toMatch(/^(cairn: (?!the sandbox is off)|error:|warning:)|ENOENT/m);
    expect(resumed.status).toBe(0);
    await access(join(workspace, "a.txt"));
  });
});
