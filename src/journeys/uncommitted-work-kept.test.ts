/**
 * Journey: a developer in the middle of their own work (a repository with uncommitted
 * edits, a staged file edited again, an untracked note, a deleted file, an executable
 * bit changed, an ignored log) lets cairn run a task that edits their files and runs a
 * command, in the sandbox, as nobody turned it off. They do not like the result and
 * put the files back to the task's first checkpoint with `cairn restore`: every file,
 * every mode and `git status` are as they were before the task, and cairn never wrote
 * to their `.git` (bin/cairn: run `npm run build` first).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmod, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { anthropicArgs, useCliFixture } from "../cli/test-support/cli-fixture.js";
import { workspaceFiles } from "../checkpoints/test-support/workspace.js";
import { sandboxUsable, say } from "./test-support/model-turns.js";

const git = (cwd: string, ...args: string[]): string => execFileSync("git", ["-c", "user.name=Dev", "-c", "user.email=dev@example.com", ...args], { cwd, encoding: "utf8" });

const cli = useCliFixture({
  prepare: async (sandbox) => {
    const workspace = sandbox.workspace;
    await writeFile(join(workspace, "app.js"), "export const greet = () => 'hello';\n");
    await writeFile(join(workspace, "old.txt"), "to be deleted by the user\n");
    await writeFile(join(workspace, "run.sh"), "#!/bin/sh\necho run\n");
    await writeFile(join(workspace, ".gitignore"), "*.log\n");
    git(workspace, "init", "-q");
    git(workspace, "add", "-A");
    git(workspace, "commit", "-q", "-m", "start");
    // The developer's work in progress, none of it committed.
    await writeFile(join(workspace, "app.js"), "export const greet = (name) => `hello, ${name}`;\n");
    await writeFile(join(workspace, "staged.txt"), "staged version\n");
    git(workspace, "add", "staged.txt");
    await writeFile(join(workspace, "staged.txt"), "staged version, edited again\n");
    await writeFile(join(workspace, "notes.txt"), "my notes, never added\n");
    await rm(join(workspace, "old.txt"));
    await chmod(join(workspace, "run.sh"), 0o755);
    await writeFile(join(workspace, "debug.log"), "ignored log\n");
  },
});

const sha = async (path: string): Promise<string> =>
  createHash("sha256")
    .update(await readFile(path))
    .digest("hex");

describe.skipIf(!sandboxUsable("uncommitted work is kept"))("journey: uncommitted work is kept", () => {
  it("a task edits uncommitted files and runs a command; a restore to its first checkpoint gives back every file, mode and git status, and cairn never wrote to .git", { timeout: 60_000 }, async () => {
    const workspace = cli.sandbox.workspace;
    // First, two tasks at once in two terminals (a new shadow repository, which they share): each keeps every checkpoint it made.
    const steps = (name: string) => [...[1, 2, 3].map((step) => say.write(`${name}/step-${step}.txt`, `${name}, step ${step}`)), say.complete(`${name} done`)];
    const servers = await Promise.all(["left", "right"].map((name) => cli.startServer({ turns: steps(name) })));
    const twins = await Promise.all(servers.map((twin, index) => cli.run(["run", ...anthropicArgs(twin), "--yes", "--json", index === 0 ? "left" : "right"])));
    for (const twin of twins) {
      expect(twin.status, twin.stderr).toBe(0);
      expect(twin.stdout + twin.stderr).not.toMatch(/checkpoints are off/);
      const events = twin.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { say?: string; text?: string; taskId?: string });
      // What the other task recorded meanwhile is not recorded twice, so a task may have fewer than one per write.
      const created = events.filter((event) => event.say === "checkpoint_created").map((event) => event.text!.slice(0, 12));
      expect(created.length).toBeGreaterThanOrEqual(2);
      const listed = await cli.run(["checkpoints", events.at(-1)!.taskId!]);
      expect(listed.stdout.match(/^[0-9a-f]{12}(?=\s)/gm)?.sort(), listed.stdout).toEqual(created.sort());
    }

    const before = await workspaceFiles(workspace);
    const statusBefore = git(workspace, "--no-optional-locks", "status", "--porcelain");
    const indexBefore = await sha(join(workspace, ".git", "index"));
    const headBefore = git(workspace, "rev-parse", "HEAD");

    const server = await cli.startServer({
      turns: [
        say.edit("app.js", "export const greet = (name) => `hello, ${name}`;", "export const greet = (name) => `Hi ${name}!`;"),
        say.write("staged.txt", "rewritten by the task"),
        say.command("rm notes.txt && chmod -x run.sh && echo 'written by the task' > debug.log && mkdir -p gen/deep && echo out > gen/deep/out.txt"),
        say.complete("Greeting changed and the workspace tidied."),
      ],
    });
    const run = await cli.run(["run", ...anthropicArgs(server), "--yes", "--json", "change the greeting and tidy up"]);
    expect(run.status, run.stderr).toBe(0);
    const taskId = (JSON.parse(run.stdout.trim().split("\n").at(-1)!) as { taskId: string }).taskId;
    // The edit and the command's changes are on disk (the command ran in the sandbox).
    const changed = await workspaceFiles(workspace);
    expect(Buffer.from(changed["app.js"] ?? "", "base64").toString()).toContain("Hi ${name}!");
    expect([changed["notes.txt"], changed["run.sh"]?.startsWith("x "), changed["gen/deep/out.txt"]]).toEqual([undefined, false, Buffer.from("out\n").toString("base64")]);

    // The task's first checkpoint is the oldest it lists.
    const listed = await cli.run(["checkpoints", taskId]);
    expect(listed.status, listed.stderr).toBe(0);
    const initial = /^([0-9a-f]{12})\s.*\binitial$/m.exec(listed.stdout)?.[1];
    expect(initial, listed.stdout).toBeDefined();
    const restored = await cli.run(["restore", taskId, initial!, "--files"]);
    expect(restored.status, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/Files restored to checkpoint/);

    // Every file back, modes too, except what no checkpoint records: the ignored log stays as the command left it.
    const after = await workspaceFiles(workspace);
    expect(after["debug.log"]).toBe(Buffer.from("written by the task\n").toString("base64"));
    expect({ ...after, "debug.log": before["debug.log"] }).toEqual(before);
    expect(git(workspace, "--no-optional-locks", "status", "--porcelain")).toBe(statusBefore);
    expect(await sha(join(workspace, ".git", "index"))).toBe(indexBefore);
    expect(git(workspace, "rev-parse", "HEAD")).toBe(headBefore);
  });
});
