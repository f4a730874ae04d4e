import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import fc from "fast-check";
import { homedir } from "node:os";
import { join, resolve, sep } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "./test-support/test-workspace.js";
import { WorkspaceGuard } from "./workspace-guard.js";

let workspace: TestWorkspace;
let guard: WorkspaceGuard;

beforeEach(() => {
  workspace = createTestWorkspace({ "src/a.ts": "a", ".cairnignore": "secret.env\nprivate/\n", "secret.env": "KEY=1", "private/x.txt": "x" });
  mkdirSync(join(workspace.base, "ws2"));
  writeFileSync(join(workspace.base, "ws2", "other.txt"), "other");
  writeFileSync(join(workspace.base, "outside.txt"), "outside");
  guard = new WorkspaceGuard(workspace.root);
});

afterEach(() => workspace.cleanup());

describe("WorkspaceGuard", () => {
  it("keeps a relative path inside the workspace inside", () => {
    const resolved = guard.resolve("src/a.ts");
    expect(resolved).toMatchObject({ inside: true, display: "src/a.ts", real: join(workspace.root, "src/a.ts") });
  });

  it("treats .. out of the workspace as outside", () => {
    expect(guard.resolve("../outside.txt")).toMatchObject({ inside: false, real: join(workspace.base, "outside.txt") });
    expect(guard.resolve("src/../../outside.txt").inside).toBe(false);
    expect(guard.resolve("src/../src/a.ts").inside).toBe(true);
  });

  it("treats absolute paths by where they point", () => {
    expect(guard.resolve(join(workspace.root, "src/a.ts")).inside).toBe(true);
    expect(guard.resolve("/etc/passwd").inside).toBe(false);
  });

  it("expands ~ to the home folder (outside)", () => {
    const resolved = guard.resolve("~/notes.txt");
    expect(resolved.absolute).toBe(join(homedir(), "notes.txt"));
    expect(resolved.inside).toBe(false);
  });

  it("does not mistake a sibling with the same prefix (/ws vs /ws2) for the workspace", () => {
    expect(guard.resolve("../ws2/other.txt").inside).toBe(false);
    expect(guard.resolve(join(workspace.base, "ws2")).inside).toBe(false);
  });

  it("follows a link to an outside file", () => {
    symlinkSync(join(workspace.base, "outside.txt"), workspace.path("link.txt"));
    expect(guard.resolve("link.txt")).toMatchObject({ inside: false, real: join(workspace.base, "outside.txt") });
  });

  it("follows a link to an outside folder, also for files that do not exist yet", () => {
    symlinkSync(join(workspace.base, "ws2"), workspace.path("linked"));
    expect(guard.resolve("linked/other.txt").inside).toBe(false);
    expect(guard.resolve("linked/new/file.txt")).toMatchObject({ inside: false, real: join(workspace.base, "ws2/new/file.txt") });
  });

  it("follows a dangling link to where it would point", () => {
    symlinkSync(join(workspace.base, "missing.txt"), workspace.path("dangling"));
    expect(guard.resolve("dangling")).toMatchObject({ inside: false, real: join(workspace.base, "missing.txt") });
    symlinkSync("src/new.ts", workspace.path("dangling-inside"));
    expect(guard.resolve("dangling-inside")).toMatchObject({ inside: true, display: "src/new.ts" });
  });

  it("keeps links that stay inside the workspace inside", () => {
    symlinkSync(workspace.path("src"), workspace.path("alias"));
    expect(guard.resolve("alias/a.ts")).toMatchObject({ inside: true, display: "src/a.ts" });
  });

  it("marks files named by .cairnignore as ignored, also inside ignored folders", () => {
    expect(guard.resolve("secret.env").ignored).toBe(true);
    expect(guard.resolve("private/x.txt").ignored).toBe(true);
    expect(guard.resolve("private").ignored).toBe(true);
    expect(guard.resolve("src/a.ts").ignored).toBe(false);
  });

  it("sees ignored files through links", () => {
    symlinkSync(workspace.path("secret.env"), workspace.path("innocent.txt"));
    expect(guard.resolve("innocent.txt").ignored).toBe(true);
  });

  it("reads .clineignore too and notices when the ignore file changes", () => {
    writeFileSync(workspace.path(".clineignore"), "src/a.ts\n");
    expect(guard.resolve("src/a.ts").ignored).toBe(true);
    writeFileSync(workspace.path(".clineignore"), "# nothing, and a longer text so the size changes\n");
    expect(guard.resolve("src/a.ts").ignored).toBe(false);
  });

  it("resolves a workspace given through a link to its real folder", () => {
    symlinkSync(workspace.root, join(workspace.base, "ws-link"));
    const linked = new WorkspaceGuard(join(workspace.base, "ws-link"));
    expect(linked.root).toBe(workspace.root);
    expect(linked.resolve(join(workspace.root, "src/a.ts")).inside).toBe(true);
  });

  it("property: without links, a relative path is inside exactly when it resolves under the workspace folder", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("a", "..", ".", "ws", "ws2", "src"), { maxLength: 8 }), (segments) => {
        const requested = segments.join("/") || ".";
        const lexical = resolve(workspace.root, requested);
        const expected = lexical === workspace.root || lexical.startsWith(workspace.root + sep);
        expect(guard.resolve(requested).inside).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
});
