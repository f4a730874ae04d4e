import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { usePerTest } from "../test-support/per-test.js";
import { temporaryFolder } from "../test-support/temporary-folder.js";
import { hookScripts } from "./hook-scripts.js";

const workspace = usePerTest(
  "the workspace",
  () => temporaryFolder("cairn-hook-scripts-"),
  (made) => made.remove(),
);
const folder = (): string => workspace().path;

async function scriptsOf(command: string): Promise<Array<{ path: string; exists: boolean }>> {
  return (await hookScripts(command, folder())).map((script) => ({ path: script.path, exists: script.hash !== undefined }));
}

describe("the workspace scripts a hook command runs (pinned by trust)", () => {
  it("finds the program and an interpreter's script, with the project folder expanded; bare program names and data arguments are not scripts", async () => {
    await mkdir(join(folder(), ".claude", "hooks"), { recursive: true });
    await mkdir(join(folder(), "scripts"), { recursive: true });
    for (const file of ["scripts/check.sh", ".claude/hooks/x.py", ".claude/hooks/y.sh", "src.ts"]) await writeFile(join(folder(), file), "x");
    expect(await scriptsOf("./scripts/check.sh --fast")).toEqual([{ path: "scripts/check.sh", exists: true }]);
    expect(await scriptsOf("python3 -u .claude/hooks/x.py")).toEqual([{ path: ".claude/hooks/x.py", exists: true }]);
    expect(await scriptsOf('"$CLAUDE_PROJECT_DIR"/.claude/hooks/y.sh')).toEqual([{ path: ".claude/hooks/y.sh", exists: true }]);
    expect(await scriptsOf("${CLAUDE_PROJECT_DIR}/.claude/hooks/y.sh && FOO=1 sh scripts/check.sh > out.log")).toEqual([
      { path: ".claude/hooks/y.sh", exists: true },
      { path: "scripts/check.sh", exists: true },
    ]);
    expect(await scriptsOf("prettier --write src.ts")).toEqual([]);
    expect(await scriptsOf("bash -c 'echo hi'")).toEqual([]);
    expect(await scriptsOf("jq -r .tool_input.command")).toEqual([]);
  });

  it("a script that does not exist yet is pinned as missing; a path outside the workspace is not pinned", async () => {
    expect(await scriptsOf("node hooks/later.mjs")).toEqual([{ path: "hooks/later.mjs", exists: false }]);
    expect(await scriptsOf("/usr/bin/env python3 /opt/hooks/guard.py")).toEqual([]);
  });
});
