/**
 * Hooks written for Cline (`.clinerules/hooks/`), through the real runner and
 * real shells: they read Cline's fields and are answered as Cline answers them.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { discoverHooks } from "./discover-hooks.js";
import { HookRunner } from "./hook-runner.js";

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), "cairn-cline-hooks-"));
  await mkdir(join(folder, ".clinerules", "hooks"), { recursive: true });
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function clineHook(name: string, body: string): Promise<void> {
  const file = join(folder, ".clinerules", "hooks", name);
  await writeFile(file, `#!/usr/bin/env bash\n${body}\n`);
  await chmod(file, 0o755);
}

async function runner(timeoutMs?: number): Promise<HookRunner> {
  const { hooks } = await discoverHooks({ workspace: folder, userConfigDir: join(folder, "config"), settings: {}, settingScope: () => ({ scope: "user", file: "x" }) });
  return new HookRunner({ hooks: hooks.map((hook) => (timeoutMs === undefined ? hook : { ...hook, timeoutMs })), cwd: folder, basePayload: () => ({ session_id: "task-7", cwd: folder }) });
}

const pre = { tool_name: "execute_command", tool_input: { command: "git push origin main", requires_approval: "true" } };

describe("hooks written for Cline", () => {
  it("get Cline's fields: base fields, preToolUse {toolName, parameters}, postToolUse {result, success}, taskStart's initialTask", async () => {
    await clineHook("PreToolUse", `cat > "${folder}/pre.json"; echo '{"cancel": false}'`);
    await clineHook("PostToolUse", `{ cat; echo; } >> "${folder}/post.jsonl"`);
    await clineHook("TaskStart", `cat > "${folder}/start.json"`);
    const hooks = await runner();
    await hooks.run("PreToolUse", pre);
    await hooks.run("PostToolUse", { ...pre, tool_response: { status: "success", content: "pushed" }, execution_time_ms: 12 });
    await hooks.run("PostToolUseFailure", { ...pre, error: "rejected by the remote" });
    await hooks.run("TaskStart", { task: "ship it", source: "startup" });
    const read = async (name: string): Promise<Record<string, unknown>> => JSON.parse(await readFile(join(folder, name), "utf8")) as Record<string, unknown>;
    expect(await read("pre.json")).toMatchObject({
      hookName: "PreToolUse",
      taskId: "task-7",
      workspaceRoots: [folder],
      timestamp: expect.stringMatching(/^\d+$/),
      preToolUse: { toolName: "execute_command", parameters: { command: "git push origin main", requires_approval: "true" } },
    });
    const posts = (await readFile(join(folder, "post.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(posts.map((post) => post["postToolUse"])).toEqual([
      { toolName: "execute_command", parameters: pre.tool_input, result: "pushed", success: true, executionTimeMs: 12 },
      { toolName: "execute_command", parameters: pre.tool_input, result: "rejected by the remote", success: false, executionTimeMs: 0 },
    ]);
    expect(await read("start.json")).toMatchObject({ hookName: "TaskStart", taskStart: { taskMetadata: { taskId: "task-7", initialTask: "ship it" } } });
  });

  it("are answered as Cline answers: the final JSON after log lines (over several lines too); a non-zero exit, unreadable JSON or a timeout blocks; no JSON proceeds", async () => {
    await clineHook("PreToolUse", `echo "checking"; jq -n '{cancel: true, errorMessage: "Pushing is done by CI"}'`);
    expect(await (await runner()).run("PreToolUse", pre)).toMatchObject({ decision: "block", reason: "Pushing is done by CI" });

    await clineHook("PreToolUse", `echo "validation failed" >&2; exit 1`);
    expect(await (await runner()).run("PreToolUse", pre)).toMatchObject({ decision: "block", reason: "validation failed" });

    await clineHook("PreToolUse", `echo '{"cancel": fal'`);
    expect(await (await runner()).run("PreToolUse", pre)).toMatchObject({ decision: "block", reason: "the hook printed JSON that cannot be read" });

    await clineHook("PreToolUse", `sleep 5`);
    expect(await (await runner(300)).run("PreToolUse", pre)).toMatchObject({ decision: "block", reason: expect.stringMatching(/^the hook timed out/) });

    await clineHook("PreToolUse", `echo "all good"`);
    expect((await (await runner()).run("PreToolUse", pre)).decision).toBeUndefined();

    await clineHook("UserPromptSubmit", `jq -n --arg ctx "CODING_STANDARDS: use types" '{cancel: false, contextModification: $ctx}'`);
    expect(await (await runner()).run("UserPromptSubmit", { prompt: "add an endpoint" })).toMatchObject({ contexts: ["CODING_STANDARDS: use types"] });
  });
});
