import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryFolder } from "../../test-support/temporary-folder.js";
import { createIsolatedWorkspace } from "./subagent-workspace.js";
import { repositoryWith } from "../../test-support/git-repository.js";

describe("a writing subagent's own worktree", () => {
  it("starts from the parent's workspace as it is: uncommitted changes to tracked files and untracked files", async () => {
    const folder = await temporaryFolder("cairn-child-start-");
    try {
      const workspace = join(folder.path, "workspace");
      await repositoryWith(workspace, { "a.txt": "committed\n" });
      await writeFile(join(workspace, "a.txt"), "changed, not committed\n");
      await writeFile(join(workspace, "new.txt"), "untracked\n");
      const isolated = await createIsolatedWorkspace({ workspace, dataDir: join(folder.path, "data"), parentTaskId: "parent", subagentId: "general-1" });
      try {
        expect(isolated.kind).toBe("worktree");
        expect(await readFile(join(isolated.cwd, "a.txt"), "utf8")).toBe("changed, not committed\n");
        expect(await readFile(join(isolated.cwd, "new.txt"), "utf8")).toBe("untracked\n");
        // What the child starts from is not its change: an untouched worktree has none.
        expect((await isolated.finish()).files).toEqual([]);
      } finally {
        await isolated.remove();
      }
    } finally {
      await folder.remove();
    }
  });
});
