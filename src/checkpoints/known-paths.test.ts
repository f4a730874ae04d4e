import { execFileSync } from "node:child_process";
import { chmod, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CheckpointTracker } from "./tracker.js";
import { initUserRepository, readText, useCheckpointFolders, workspaceFiles, writeFiles } from "./test-support/workspace.js";

const folders = useCheckpointFolders();
const limit = 2_000;

/** Every index counts as large here, so turns that name their files take the large-index way (issue 33). */
async function tracker(): Promise<CheckpointTracker> {
  const created = new CheckpointTracker({ workspace: folders.workspace, dataDir: folders.dataDir, maxFileBytes: limit, largeIndexBytes: 0 });
  await created.init();
  return created;
}

const at = (path: string): string => join(folders.workspace, path);

/** The paths a checkpoint recorded. */
function recorded(subject: CheckpointTracker, hash: string): string[] {
  return execFileSync("git", [`--git-dir=${subject.gitDir}`, "ls-tree", "-r", "--name-only", hash], { encoding: "utf8" })
    .split("\n")
    .filter(Boolean)
    .sort();
}

describe("a turn whose tools named the files they changed", () => {
  it("records those files on the last checkpoint, as a scan of the workspace would, and each step restores exactly", async () => {
    await writeFiles(folders.workspace, { ".gitignore": "*.log\n", "src/a.ts": "a\n", "run.sh": "#!/bin/sh\n", "docs/b.md": "b\n" });
    initUserRepository(folders.workspace);
    await writeFiles(folders.workspace, { "notes.txt": "untracked\n" });
    const subject = await tracker();
    const initial = (await subject.commit({ taskId: "t", reason: "initial" }))!;
    const before = await workspaceFiles(folders.workspace);

    // The tools edit a tracked file, make a script executable, create files in a new folder, and write an ignored log.
    await writeFiles(folders.workspace, { "src/a.ts": "a, edited\n", "src/new/c.ts": "created\n", "notes.txt": "untracked, edited\n", "out.log": "ignored\n" });
    await chmod(at("run.sh"), 0o755);
    const named = ["src/a.ts", "src/new/c.ts", "notes.txt", "out.log", "run.sh"].map(at);
    const turn = (await subject.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true, paths: named }))!;
    expect(turn).toBeDefined();
    const after = await workspaceFiles(folders.workspace);
    expect(recorded(subject, turn)).not.toContain("out.log");
    // A scan right after finds nothing the named paths left out.
    expect(await subject.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true })).toBeUndefined();
    // Naming files that did not change makes no checkpoint.
    expect(await subject.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true, paths: [at("src/a.ts")] })).toBeUndefined();

    await subject.restoreFiles(initial, { taskId: "t" });
    expect(await workspaceFiles(folders.workspace)).toEqual({ ...before, "out.log": Buffer.from("ignored\n").toString("base64") });
    await subject.restoreFiles(turn, { taskId: "t" });
    expect(await workspaceFiles(folders.workspace)).toEqual(after);
  });

  it("leaves a change it was not told about to the next checkpoint that scans the workspace", async () => {
    await writeFiles(folders.workspace, { "a.txt": "a\n", "b.txt": "b\n" });
    const subject = await tracker();
    await subject.commit({ taskId: "t", reason: "initial" });
    await writeFiles(folders.workspace, { "a.txt": "a by the tool\n", "b.txt": "b by someone else\n" });
    const turn = (await subject.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true, paths: [at("a.txt")] }))!;
    const show = (hash: string, path: string): string => execFileSync("git", [`--git-dir=${subject.gitDir}`, "show", `${hash}:${path}`], { encoding: "utf8" });
    expect(show(turn, "a.txt")).toBe("a by the tool\n");
    expect(show(turn, "b.txt")).toBe("b\n");
    const scanned = (await subject.commit({ taskId: "t", reason: "completion" }, { onlyIfChanged: true }))!;
    expect(show(scanned, "b.txt")).toBe("b by someone else\n");
  });

  it("scans the workspace when a named path reaches beyond itself: a .gitignore, a nested repository, a large file, a deleted file", async () => {
    await writeFiles(folders.workspace, { ".gitignore": "*.log\n", "kept.txt": "kept\n", "debug.log": "was ignored\n", "gone.txt": "will go\n" });
    const subject = await tracker();
    await subject.commit({ taskId: "t", reason: "initial" });
    const turn = async (paths: string[]): Promise<string[]> => recorded(subject, (await subject.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true, paths: paths.map(at) }))!);

    // The .gitignore no longer ignores logs: debug.log, which no tool named, is recorded now.
    await writeFiles(folders.workspace, { ".gitignore": "# nothing ignored\n" });
    expect(await turn([".gitignore"])).toContain("debug.log");

    // A file written inside a repository nested in the workspace is recorded as a file; its .git is not.
    await mkdir(at("vendor/lib"), { recursive: true });
    execFileSync("git", ["init", "-q"], { cwd: at("vendor/lib") });
    await writeFiles(folders.workspace, { "vendor/lib/x.c": "int x;\n" });
    const nested = await turn(["vendor/lib/x.c"]);
    expect(nested).toContain("vendor/lib/x.c");
    expect(nested.some((path) => path.includes(".git/") || path === "vendor/lib")).toBe(false);

    // A file over the size limit stays out; a deleted one goes.
    const { rm } = await import("node:fs/promises");
    await writeFiles(folders.workspace, { "huge.bin": "H".repeat(limit + 1), "kept.txt": "kept, edited\n" });
    await rm(at("gone.txt"));
    const last = await turn(["huge.bin", "kept.txt", "gone.txt"]);
    expect(last).not.toContain("huge.bin");
    expect(last).not.toContain("gone.txt");
    expect(last).toContain("kept.txt");
    expect(await readText(at("vendor/lib/x.c"))).toBe("int x;\n");
  });
});
