/** git on the user's repository is not steered by the GIT_* variables cairn inherited (as inside a git hook), and runs none of its hooks. */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { userGit } from "./user-git.js";

const root = mkdtempSync(join(tmpdir(), "cairn-user-git-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function repository(name: string): string {
  const folder = join(root, name);
  execFileSync("git", ["init", "-q", folder]);
  return folder;
}

describe("git on the user's repository", () => {
  it("works on the folder it is given even when GIT_DIR and GIT_INDEX_FILE point elsewhere, and no hook of it runs", async () => {
    const mine = repository("mine");
    const other = repository("other");
    writeFileSync(join(mine, ".git", "hooks", "pre-commit"), `#!/bin/sh\ntouch ${join(root, "hook-ran")}\n`);
    chmodSync(join(mine, ".git", "hooks", "pre-commit"), 0o755);
    writeFileSync(join(mine, "a.txt"), "a\n");
    const saved = { dir: process.env["GIT_DIR"], index: process.env["GIT_INDEX_FILE"] };
    process.env["GIT_DIR"] = join(other, ".git");
    process.env["GIT_INDEX_FILE"] = join(other, ".git", "index");
    try {
      expect((await userGit(mine, ["add", "a.txt"])).exitCode).toBe(0);
      const commit = await userGit(mine, ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "one"]);
      expect(commit.exitCode, commit.stderr).toBe(0);
    } finally {
      for (const [name, value] of [
        ["GIT_DIR", saved.dir],
        ["GIT_INDEX_FILE", saved.index],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    expect(execFileSync("git", ["-C", mine, "log", "--format=%s"], { encoding: "utf8" }).trim()).toBe("one");
    expect((await userGit(other, ["rev-parse", "--verify", "HEAD"])).exitCode).not.toBe(0);
    expect(existsSync(join(root, "hook-ran"))).toBe(false);
  });
});
