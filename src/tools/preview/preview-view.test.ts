/**
 * The preview's two views of a workspace (#30), on real processes and files:
 * the overlayfs and the copy (the fallback where the kernel refuses an
 * overlay in a user namespace) find the same changes, nothing lands in the
 * workspace until they are applied, and applying refuses a workspace that
 * changed since.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { overlayLaunch, previewFolders, type PreviewFolders, type ViewMode } from "./overlay-launch.js";
import { applyPreview, readPreview, type PreviewResult } from "./preview-changes.js";

const made: string[] = [];
afterEach(() => {
  for (const path of made.splice(0)) rmSync(path, { recursive: true, force: true });
});

function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), "cairn-preview-view-"));
  made.push(root);
  mkdirSync(join(root, "build", "sub"), { recursive: true });
  writeFileSync(join(root, "build", "a.js"), "a\n");
  writeFileSync(join(root, "build", "sub", "b.js"), "b\n");
  writeFileSync(join(root, "notes.txt"), "hello\n");
  writeFileSync(join(root, "keep.txt"), "same\n");
  return root;
}

const command = "rm -rf build && mkdir build && echo new > build/c.js && sed -i s/hello/bye/ notes.txt && echo x > added.txt";

function preview(root: string, mode: ViewMode): { folders: PreviewFolders; result: PreviewResult } {
  const folders = previewFolders();
  made.push(folders.root);
  // Into the view first (as bubblewrap's --chdir does): the shell starts in the folder under the mount.
  const launch = overlayLaunch({ file: "/bin/sh", args: ["-c", `cd '${root}' && ${command}`], env: process.env, release: () => [] }, root, folders, mode);
  const run = spawnSync(launch.file, launch.args, { cwd: root, env: launch.env });
  expect(run.status, run.stderr.toString()).toBe(0);
  return { folders, result: readPreview(root, folders) };
}

describe("the preview's views of the workspace", () => {
  it("the overlay and the copy find the same created, changed and deleted files, and the workspace is untouched", () => {
    const expected = [
      { path: "added.txt", kind: "file", change: "created" },
      { path: "build/a.js", kind: "file", change: "deleted" },
      { path: "build/c.js", kind: "file", change: "created" },
      { path: "build/sub", kind: "folder", change: "deleted" },
      { path: "build/sub/b.js", kind: "file", change: "deleted" },
      { path: "notes.txt", kind: "file", change: "changed" },
    ];
    for (const mode of ["overlay", "copy"] as const) {
      const root = workspace();
      expect(preview(root, mode).result.changes, mode).toEqual(expected);
      expect(readFileSync(join(root, "notes.txt"), "utf8")).toBe("hello\n");
      expect(existsSync(join(root, "build", "a.js"))).toBe(true);
    }
  });

  it("applying lands exactly the preview; a workspace changed since where the preview touches is refused, and nothing is written", () => {
    const root = workspace();
    const { folders, result } = preview(root, "copy");
    expect(applyPreview({ workspace: root, folders, result, skip: () => undefined })).toEqual({ skipped: [] });
    expect(readFileSync(join(root, "notes.txt"), "utf8")).toBe("bye\n");
    expect(readFileSync(join(root, "build", "c.js"), "utf8")).toBe("new\n");
    expect(existsSync(join(root, "build", "sub"))).toBe(false);
    expect(readFileSync(join(root, "keep.txt"), "utf8")).toBe("same\n");

    const other = workspace();
    const second = preview(other, "overlay");
    writeFileSync(join(other, "notes.txt"), "edited by hand meanwhile\n");
    expect(applyPreview({ workspace: other, folders: second.folders, result: second.result, skip: () => undefined }).problem).toBe("notes.txt changed in the workspace since the preview");
    expect(existsSync(join(other, "added.txt"))).toBe(false);
  });
});
