/**
 * A write lands where it was approved or nowhere: a folder on the way, or the
 * file itself, swapped for a link into `.git/hooks` between the approval and
 * the write (here: while the ask waits for its answer) makes cairn refuse.
 * Through the real CLI, answering the asks on stdin.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { lstat, mkdir, readFile, rename, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { anthropicArgs, useCliFixture } from "./test-support/cli-fixture.js";
import { startCli } from "./test-support/cli-harness.js";

const cli = useCliFixture();

const write = (path: string, content: string): string => `<write_to_file>\n<path>${path}</path>\n<content>\n${content}\n</content>\n</write_to_file>`;
const replace = (path: string, search: string, replacement: string): string =>
  `<replace_in_file>\n<path>${path}</path>\n<diff>\n------- SEARCH\n${search}\n=======\n${replacement}\n+++++++ REPLACE\n</diff>\n</replace_in_file>`;
const complete = "<attempt_completion>\n<result>done</result>\n</attempt_completion>";

/** The last user message the model received in request `index`: the previous tool's result. */
function resultIn(index: number): string {
  const body = cli.server!.requests[index]?.body as { messages?: Array<{ role: string; content: unknown }> } | undefined;
  return JSON.stringify(body?.messages?.at(-1)?.content ?? "");
}

describe("writes are race-free: a link swapped in after the approval is never followed", () => {
  it("write_to_file and replace_in_file refuse when a folder on the way or the file became a link into .git/hooks, and write nothing there", { timeout: 90_000 }, async () => {
    const workspace = cli.sandbox.workspace;
    execFileSync("git", ["init", "-q"], { cwd: workspace });
    const hooks = join(workspace, ".git", "hooks");
    await mkdir(join(workspace, "scripts"), { recursive: true });
    await mkdir(join(workspace, "notes"), { recursive: true });
    await writeFile(join(workspace, "notes", "todo.txt"), "old\n");
    await mkdir(join(workspace, "lib"), { recursive: true });
    await writeFile(join(workspace, "lib", "post-checkout"), "echo safe\n");
    await cli.startServer({
      turns: [
        { text: write("scripts/pre-commit", "#!/bin/sh\ntouch pwned-by-pre-commit") },
        { text: write("notes/todo.txt", "#!/bin/sh\ntouch pwned-by-pre-push") },
        // A write that succeeds in between, so that three failures in a row do not stop the task.
        { text: write("ordinary.txt", "still works") },
        { text: replace("lib/post-checkout", "echo safe", "touch pwned-by-post-checkout") },
        { text: complete },
      ],
    });
    const run = startCli(["run", ...anthropicArgs(cli.server!), "write the scripts"], { env: cli.sandbox.env, cwd: workspace, keepStdinOpen: true });

    // Asks are on stderr (stdout is the answer's).
    // 1. The folder `scripts/` becomes a link to .git/hooks while the ask waits.
    await run.waitForOutput(/\? Approve ▸ write_to_file scripts\/pre-commit/, "stderr");
    await rename(join(workspace, "scripts"), join(workspace, "scripts-moved"));
    await symlink(hooks, join(workspace, "scripts"));
    run.child.stdin?.write("y\n");

    // 2. The file itself becomes a link to a hook that does not exist yet.
    await run.waitForOutput(/\? Approve ▸ write_to_file notes\/todo\.txt/, "stderr");
    await rename(join(workspace, "notes", "todo.txt"), join(workspace, "notes", "todo-moved.txt"));
    await symlink(join(hooks, "pre-push"), join(workspace, "notes", "todo.txt"));
    run.child.stdin?.write("y\n");

    await run.waitForOutput(/\? Approve ▸ write_to_file ordinary\.txt/, "stderr");
    run.child.stdin?.write("y\n");

    // 3. replace_in_file: the folder becomes a link to .git/hooks, which holds a file with the same text.
    await run.waitForOutput(/\? Approve ▸ replace_in_file lib\/post-checkout/, "stderr");
    await writeFile(join(hooks, "post-checkout"), "echo safe\n");
    await rename(join(workspace, "lib"), join(workspace, "lib-moved"));
    await symlink(hooks, join(workspace, "lib"));
    // The task ends when the model completes (no completion ask headless).
    run.child.stdin?.end("y\n");
    expect(await run.exit, run.stderr).toBe(0);

    expect(existsSync(join(hooks, "pre-commit"))).toBe(false);
    expect(existsSync(join(hooks, "pre-push"))).toBe(false);
    expect(await readFile(join(hooks, "post-checkout"), "utf8")).toBe("echo safe\n");
    // The link planted in place of the file is left as it was: nothing was written through it or over it.
    expect((await lstat(join(workspace, "notes", "todo.txt"))).isSymbolicLink()).toBe(true);
    for (const index of [1, 2, 4]) {
      expect(resultIn(index)).toMatch(/changed since the write was approved/);
      expect(resultIn(index)).toMatch(/Nothing was changed/);
    }
    expect(run.stderr).toMatch(/✗ write_to_file scripts\/pre-commit: .*changed since the write was approved/);
    // An ordinary write still works.
    expect(await readFile(join(workspace, "ordinary.txt"), "utf8")).toBe("still works\n");
  });
});
