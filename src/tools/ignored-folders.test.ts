/**
 * Folders the ignore files hide are never read, by list_files, search_files or the
 * first turn's listing: a read directory's access time moves (on file systems that
 * keep it, as a visible folder in the same test shows), an unread one's does not.
 */
import { mkdirSync, statSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { environmentDetails } from "../prompt/environment-details.js";
import { createRecordingContext, textOf } from "./test-support/recording-context.js";
import { createTestExecutor, createTestWorkspace, toolCall, type TestWorkspace } from "./test-support/test-workspace.js";

let workspace: TestWorkspace;
const ignored = ["build", "deps", "packages/app/generated"];
const visible = "packages/app/src";

beforeEach(() => {
  const files: Record<string, string> = { ".gitignore": "/build/\ndeps/\n", "packages/app/.gitignore": "generated/\n", [`${visible}/main.ts`]: "export const needle = 1;\n" };
  for (const folder of ignored) for (let index = 0; index < 50; index += 1) files[`${folder}/nested/file-${index}.ts`] = "export const needle = 2;\n";
  workspace = createTestWorkspace(files);
  mkdirSync(join(workspace.root, ".git"));
});
afterEach(() => workspace.cleanup());

/** Sets each folder's access time a day before its modification time: reading it moves the access time (relatime). */
function ageAccessTimes(folders: string[]): void {
  for (const folder of folders) {
    const path = join(workspace.root, folder);
    const { mtime } = statSync(path);
    utimesSync(path, new Date(mtime.getTime() - 86_400_000), mtime);
  }
}

const accessTime = (folder: string) => statSync(join(workspace.root, folder)).atimeMs;

describe("folders hidden by the ignore files", () => {
  it.each([
    ["list_files (recursive)", () => createTestExecutor(workspace).executeTool(toolCall("list_files", { path: ".", recursive: "true" }), createRecordingContext())],
    ["search_files", () => createTestExecutor(workspace).executeTool(toolCall("search_files", { path: ".", regex: "needle" }), createRecordingContext())],
    ["the first turn's listing", () => environmentDetails({ workspace: workspace.root, mode: "act", includeFileListing: true, contextTokens: 0, contextWindow: 1, now: new Date(0) })],
  ])("are never read by %s, which still finds the visible files", async (_name, run) => {
    const folders = [...ignored, ...ignored.map((folder) => `${folder}/nested`), visible];
    ageAccessTimes(folders);
    const before = new Map(folders.map((folder) => [folder, accessTime(folder)]));
    const result = await run();
    const text = typeof result === "string" ? result : textOf(result.content);
    expect(text).toContain("main.ts");
    expect(text).not.toMatch(/generated|deps|build\/|file-\d+\.ts/);
    // The visible folder was read, and the file system shows it: the check below means something.
    expect(accessTime(visible)).toBeGreaterThan(before.get(visible)!);
    for (const folder of folders.filter((name) => name !== visible)) expect({ folder, atime: accessTime(folder) }).toEqual({ folder, atime: before.get(folder) });
  });
});
