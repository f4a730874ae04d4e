import { existsSync, readFileSync, statSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultApprovalSettings } from "../approval.js";
import { createRecordingContext, textOf } from "../test-support/recording-context.js";
import { createTestExecutor, createTestWorkspace, toolCall, type TestWorkspace } from "../test-support/test-workspace.js";
import { commandWords } from "./execute-command.js";

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = createTestWorkspace({ ".cairnignore": "secret.env\n", "secret.env": "KEY=1\n" });
});
afterEach(() => workspace.cleanup());

function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  // A killed process whose parent is gone may linger as a zombie until reaped: it no longer runs.
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("Z") ?? false;
  } catch {
    return true;
  }
}

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await delay(20);
}

const run = (command: string, extra: Record<string, string> = {}) => toolCall("execute_command", { command, requires_approval: "false", ...extra });

describe("execute_command", () => {
  it("runs in the workspace in the user's shell, streams output, reports exit code and duration", async () => {
    const executor = createTestExecutor(workspace, { yes: true });
    const context = createRecordingContext();
    const outcome = await executor.executeTool(run("pwd; echo done; exit 3"), context);
    const text = textOf(outcome.content);
    expect(outcome.status).toBe("success");
    expect(text).toContain(`${workspace.root}\ndone`);
    expect(text).toMatch(/exited with code 3 after \d+\.\d s/);
    const output = context.says.filter((say) => say.type === "command_output");
    expect(output.at(-1)).toMatchObject({ partial: false, text: `${workspace.root}\ndone\n` });
    expect(new Set(output.map((say) => say.key)).size).toBe(1);
    expect(context.says.some((say) => say.type === "command" && say.text === "pwd; echo done; exit 3")).toBe(true);
  });

  it("reports a signal that ended the command", async () => {
    const outcome = await createTestExecutor(workspace, { yes: true }).executeTool(run("echo before; kill -KILL $$"), createRecordingContext());
    expect(textOf(outcome.content)).toMatch(/killed by signal SIGKILL after \d+\.\d s/);
    expect(textOf(outcome.content)).toContain("before");
  });

  it("asks unless auto-approved; requires_approval only adds caution", async () => {
    const safeOnly = createTestExecutor(workspace, { approval: { ...defaultApprovalSettings, commandsSafe: true } });
    const quiet = createRecordingContext();
    await safeOnly.executeTool(run("true"), quiet);
    expect(quiet.asks).toEqual([]);
    const cautious = createRecordingContext({ answers: [{ response: "no", text: "not now" }] });
    const outcome = await safeOnly.executeTool(run("rm -rf build", { requires_approval: "true" }), cautious);
    expect(cautious.asks[0]).toMatchObject({ type: "command", text: expect.stringMatching(/^rm -rf build\n\(answer "always" to allow Bash\(rm:\*\)/) });
    expect(outcome.status).toBe("rejected");
    expect(textOf(outcome.content)).toContain("not now");
    const defaults = createTestExecutor(workspace);
    const asked = createRecordingContext({ answers: [{ response: "yes" }] });
    await defaults.executeTool(run("true"), asked);
    expect(asked.asks).toHaveLength(1);
  });

  it("caps a command that prints 100 MB, saves the full output, and keeps memory bounded", async () => {
    const executor = createTestExecutor(workspace, { yes: true });
    const context = createRecordingContext();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const outcome = await executor.executeTool(run("yes 0123456789abcdef | head -c 104857600"), context);
    clearInterval(sampler);
    const text = textOf(outcome.content);
    expect(text.length).toBeLessThan(60_000);
    expect(text).toContain("characters omitted");
    const saved = /saved at (\S+\.log);/.exec(text)?.[1];
    expect(saved).toBeDefined();
    expect(saved?.startsWith(`${workspace.dataDir}/outputs/`)).toBe(true);
    expect(statSync(saved!).size).toBe(104_857_600);
    expect(peak - baseline).toBeLessThan(150 * 1024 * 1024);
    for (const say of context.says) expect(say.text.length).toBeLessThan(60_000);
  });

  it("stops a command that never ends at its timeout", async () => {
    const executor = createTestExecutor(workspace, { yes: true });
    const outcome = await executor.executeTool(run("echo started; sleep 1000", { timeout: "1" }), createRecordingContext());
    expect(outcome.status).toBe("error");
    expect(textOf(outcome.content)).toContain("did not finish within 1 s and was stopped");
    expect(textOf(outcome.content)).toContain("started");
  });

  it("abort kills the whole process tree, including a grandchild that ignores SIGTERM", async () => {
    const executor = createTestExecutor(workspace, { yes: true });
    const context = createRecordingContext();
    const pidFile = workspace.path("grandchild.pid");
    const pending = executor.executeTool(run(`sh -c 'trap "" TERM; sleep 1000 & echo $! > ${pidFile}; wait' & wait`), context);
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "");
    const grandchild = Number(readFileSync(pidFile, "utf8").trim());
    expect(processGone(grandchild)).toBe(false);
    context.controller.abort();
    const outcome = await pending;
    expect(textOf(outcome.content)).toContain("stopped");
    await waitFor(() => processGone(grandchild));
    expect(processGone(grandchild)).toBe(true);
  });

  it("abortAll stops running commands", async () => {
    const executor = createTestExecutor(workspace, { yes: true });
    const context = createRecordingContext();
    const pending = executor.executeTool(run("echo started; sleep 1000"), context);
    // Output streaming means the command is running (and tracked).
    await waitFor(() => context.says.some((say) => say.type === "command_output"));
    await executor.abortAll();
    const outcome = await pending;
    expect(outcome.status).toBe("error");
  });

  it("refuses commands naming an ignored file", async () => {
    const executor = createTestExecutor(workspace, { yes: true });
    for (const command of ["cat secret.env", "grep KEY ./secret.env", `cat "${workspace.path("secret.env")}"`, "tool --input=secret.env"]) {
      const outcome = await executor.executeTool(run(command), createRecordingContext());
      expect(outcome.status).toBe("error");
      expect(textOf(outcome.content)).toContain(".cairnignore");
      expect(textOf(outcome.content)).not.toContain("KEY=1");
    }
    expect(commandWords(`a 'b c' "d e" f=g|h`)).toEqual(["a", "b c", "d e", "f=g", "g", "h"]);
  });

  it("missing command or a bad timeout is a mistake", async () => {
    const executor = createTestExecutor(workspace, { yes: true });
    expect((await executor.executeTool(toolCall("execute_command", { requires_approval: "false" }), createRecordingContext())).status).toBe("mistake");
    expect((await executor.executeTool(run("true", { timeout: "soon" }), createRecordingContext())).status).toBe("mistake");
  });
});
