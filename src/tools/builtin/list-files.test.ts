import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRecordingContext, textOf } from "../test-support/recording-context.js";
import { createTestExecutor, createTestWorkspace, toolCall, type TestWorkspace } from "../test-support/test-workspace.js";

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = createTestWorkspace({
    "b.txt": "b",
    "a.txt": "a",
    "src/index.ts": "x",
    "src/lib/util.ts": "x",
    "build/out.js": "x",
    "src/gen.log": "x",
    ".gitignore": "build/\n",
    "src/.gitignore": "*.log\n",
    ".cairnignore": "secret.env\n",
    "secret.env": "KEY=1",
    "node_modules/pkg/index.js": "x",
  });
});
afterEach(() => workspace.cleanup());

async function list(params: Record<string, string>) {
  const outcome = await createTestExecutor(workspace).executeTool(toolCall("list_files", params), createRecordingContext());
  return textOf(outcome.content);
}

describe("list_files", () => {
  it("lists the top level sorted, folders with a slash", async () => {
    expect(await list({ path: "." })).toBe([".cairnignore", ".gitignore", "a.txt", "b.txt", "secret.env  [blocked by .cairnignore]", "src/"].join("\n"));
  });

  it("lists recursively, honouring .gitignore at every level", async () => {
    const text = await list({ path: ".", recursive: "true" });
    expect(text).toContain("src/lib/util.ts");
    expect(text).not.toContain("build");
    expect(text).not.toContain("gen.log");
    expect(text).not.toContain("node_modules");
  });

  it("caps the listing at 200 entries with a note", async () => {
    for (let index = 0; index < 250; index++) writeFileSync(join(workspace.root, `f${String(index).padStart(3, "0")}.txt`), "");
    const text = await list({ path: "." });
    const [listing] = text.split("\n\n");
    expect(listing?.split("\n")).toHaveLength(200);
    expect(text).toContain("Only the first 200 entries are shown");
  });

  it("explains a file or a missing folder", async () => {
    expect(await list({ path: "a.txt" })).toContain("is a file, not a folder");
    expect(await list({ path: "nope" })).toContain("there is no folder at nope");
  });
});
