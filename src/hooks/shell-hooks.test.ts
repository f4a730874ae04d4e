import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createShellHooks } from "./shell-hooks.js";
import type { HookResult } from "./shell-hooks.js";

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), "cairn-hooks-"));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("shell hooks (T5, T18)", () => {
  it("T18: TaskStart runs the configured command in the workspace with the JSON payload on stdin", async () => {
    const statuses: HookResult[] = [];
    const hooks = createShellHooks({ hooks: { TaskStart: "cat > payload.json; echo started" }, cwd: folder, onStatus: (result) => statuses.push(result) });
    await hooks.taskStart({ taskId: "t1", task: "do it" });
    expect(JSON.parse(await readFile(join(folder, "payload.json"), "utf8"))).toEqual({ hook: "TaskStart", taskId: "t1", task: "do it" });
    expect(statuses).toEqual([{ hook: "TaskStart", exitCode: 0, output: "started", timedOut: false, cancelled: false }]);
  });

  it("T5: hasTaskCancel says whether a TaskCancel hook exists; cancelRunning kills a running hook", async () => {
    const statuses: HookResult[] = [];
    const hooks = createShellHooks({ hooks: { TaskStart: "sleep 30", TaskCancel: "true" }, cwd: folder, onStatus: (result) => statuses.push(result) });
    expect(hooks.hasTaskCancel()).toBe(true);
    expect(createShellHooks({ hooks: {}, cwd: folder }).hasTaskCancel()).toBe(false);
    const running = hooks.taskStart({ taskId: "t", task: "x" });
    await new Promise((resolve) => setTimeout(resolve, 50));
    hooks.cancelRunning();
    await running;
    expect(statuses[0]).toMatchObject({ hook: "TaskStart", cancelled: true });
  });

  it("a hook that runs too long is killed and reported", async () => {
    const statuses: HookResult[] = [];
    const hooks = createShellHooks({ hooks: { TaskCancel: "sleep 30" }, cwd: folder, timeoutMs: 100, onStatus: (result) => statuses.push(result) });
    await hooks.taskCancel({ taskId: "t" });
    expect(statuses[0]).toMatchObject({ hook: "TaskCancel", timedOut: true });
  });

  it("an unconfigured hook does nothing", async () => {
    const hooks = createShellHooks({ hooks: {}, cwd: folder });
    await expect(hooks.taskStart({ taskId: "t", task: "x" })).resolves.toBeUndefined();
  });
});
