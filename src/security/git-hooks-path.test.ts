import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createToolExecutor } from "../tools/create-tool-executor.js";
import { workspacePathOracle } from "../tools/path-facts.js";
import { createRecordingContext, textOf } from "../tools/test-support/recording-context.js";
import { toolCall } from "../tools/test-support/test-workspace.js";
import { WorkspaceGuard } from "../tools/workspace-guard.js";
import { protectedReason } from "./protected-paths.js";

const hooksReason = "git runs hooks from this folder (core.hooksPath)";
const variables = ["HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "XDG_CONFIG_HOME"] as const;
const saved = Object.fromEntries(variables.map((name) => [name, process.env[name]]));
let base: string;

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "cairn-hooks-path-")));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));
beforeEach(() => {
  // Each test's own home, XDG and system config files (none until a test writes them), never the user's.
  const folder = mkdtempSync(join(base, "config-"));
  mkdirSync(join(folder, "home"));
  process.env["HOME"] = join(folder, "home");
  delete process.env["GIT_CONFIG_GLOBAL"];
  process.env["GIT_CONFIG_SYSTEM"] = join(folder, "system");
  process.env["XDG_CONFIG_HOME"] = join(folder, "xdg");
});
afterEach(() => {
  for (const name of variables) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, stdio: "ignore" });
}

function repository(): string {
  const root = mkdtempSync(join(base, "repo-"));
  git(root, "init", "-q");
  writeFileSync(join(root, "README.md"), "hello\n");
  git(root, "add", "-A");
  git(root, "commit", "-qm", "init");
  return root;
}

/** The three ways cairn asks about one path: the live check, a one-decision snapshot, and a write under --yes. */
async function expectProtected(workspace: string, hook: string): Promise<void> {
  const userConfigDir = join(base, "user-config");
  expect(protectedReason(hook, { workspace, userConfigDir })).toBe(hooksReason);
  const oracle = workspacePathOracle(new WorkspaceGuard(workspace), userConfigDir);
  expect(oracle.snapshot?.().facts(hook).protectedReason).toBe(hooksReason);
  const executor = createToolExecutor({ workspace, dataDir: join(base, "data"), yes: true, allowOutsideWrites: true, protocol: "xml", userConfigDir });
  const context = createRecordingContext({ answers: [{ response: "no" }] });
  const outcome = await executor.executeTool(toolCall("write_to_file", { path: hook, content: "#!/bin/sh\ncurl evil\n" }), context);
  expect(outcome.status).not.toBe("success");
  expect(context.asks).toHaveLength(1);
  expect(context.asks[0]?.meta?.["explicitApproval"]).toBe(true);
  expect(context.asks[0]?.text).toContain(hooksReason);
  expect(existsSync(hook)).toBe(false);
}

function expectNotProtected(workspace: string, hook: string): void {
  expect(protectedReason(hook, { workspace, userConfigDir: join(base, "user-config") })).toBeUndefined();
}

describe("git's hooks folder (core.hooksPath) stays protected", () => {
  it("set in the repository's config, also when it is set after a first check", async () => {
    const root = repository();
    const hook = join(root, ".husky", "pre-commit");
    expectNotProtected(root, hook);
    git(root, "config", "core.hooksPath", ".husky");
    await expectProtected(root, hook);
    git(root, "config", "core.hooksPath", "other-hooks");
    expectNotProtected(root, hook);
    await expectProtected(root, join(root, "other-hooks", "pre-push"));
  });

  it("set in ~/.gitconfig, in git's XDG config file, in GIT_CONFIG_GLOBAL's file and in the system config", async () => {
    const root = repository();
    const places = [join(process.env["HOME"]!, ".gitconfig"), join(process.env["XDG_CONFIG_HOME"]!, "git", "config"), join(base, `global-${Date.now()}`), process.env["GIT_CONFIG_SYSTEM"]!];
    for (const [index, file] of places.entries()) {
      const hook = join(base, `hooks-${index}`, "pre-commit");
      expectNotProtected(root, hook);
      if (index === 2) process.env["GIT_CONFIG_GLOBAL"] = file;
      mkdirSync(join(file, ".."), { recursive: true });
      writeFileSync(file, `[core]\n\thooksPath = ${join(base, `hooks-${index}`)}\n`);
      await expectProtected(root, hook);
      rmSync(file);
    }
  });

  it("set in a file the repository's config includes, also when only that file changes", async () => {
    const root = repository();
    const included = join(base, `included-${Date.now()}`);
    writeFileSync(included, "[user]\n\tname = someone\n");
    git(root, "config", "include.path", included);
    const hook = join(root, "included-hooks", "pre-commit");
    expectNotProtected(root, hook);
    writeFileSync(included, "[core]\n\thooksPath = included-hooks\n");
    await expectProtected(root, hook);
  });

  it("in a linked worktree, set in the main repository's config after a first check", async () => {
    const main = repository();
    const worktree = join(base, `worktree-${Date.now()}`);
    git(main, "worktree", "add", "-q", worktree);
    const hook = join(worktree, ".husky", "pre-commit");
    expectNotProtected(worktree, hook);
    git(main, "config", "core.hooksPath", ".husky");
    // Relative to the top of the working tree where git runs the hook: the worktree's own .husky.
    await expectProtected(worktree, hook);
  });

  it("in a workspace below the repository's top (a nested folder), relative to the top", async () => {
    const root = repository();
    const workspace = join(root, "packages", "app");
    mkdirSync(workspace, { recursive: true });
    git(root, "config", "core.hooksPath", "packages/app/hooks");
    await expectProtected(workspace, join(workspace, "hooks", "pre-commit"));
    git(root, "config", "core.hooksPath", ".husky");
    const atTop = join(root, ".husky", "pre-commit");
    expect(protectedReason(atTop, { workspace, userConfigDir: join(base, "user-config") })).toBe(hooksReason);
    expectNotProtected(workspace, join(workspace, ".husky", "pre-commit"));
  });

  it("a search still shows the hooks folder's files (protection is about writes) and leaves credentials out", async () => {
    const root = repository();
    git(root, "config", "core.hooksPath", "githooks");
    mkdirSync(join(root, "githooks"));
    writeFileSync(join(root, "githooks", "hooks.sh"), "needle in a hook script\n");
    writeFileSync(join(root, ".env"), "needle=secret\n");
    const executor = createToolExecutor({ workspace: root, dataDir: join(base, "data"), yes: true, allowOutsideWrites: false, protocol: "xml", userConfigDir: join(base, "user-config") });
    const outcome = await executor.executeTool(toolCall("search_files", { path: ".", regex: "needle" }), createRecordingContext());
    expect(textOf(outcome.content)).toContain("hooks.sh");
    expect(textOf(outcome.content)).not.toContain("secret");
  });
});
