import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { callbackHooks } from "./callback-hooks.js";
import type { HookCallbackInput, HookCallbacks } from "./callback-hooks.js";
import { describeHookReport } from "./describe-hook.js";
import type { HookDefinition } from "./hook-definition.js";
import { HookRunner } from "./hook-runner.js";
import type { HookReport } from "./hook-runner.js";
import { createTaskHooks } from "./task-hooks.js";

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), "cairn-callback-hooks-"));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

function runner(hooks: HookDefinition[], reports: HookReport[] = []): HookRunner {
  return new HookRunner({ hooks, cwd: folder, basePayload: () => ({ session_id: "task-1", cwd: folder }), onReport: (report) => reports.push(report) });
}

const bashCall = { tool_name: "Bash", tool_input: { command: "rm -rf build" }, tool_use_id: "call-1" };
const bashSubjects = { subjects: ["Bash", "execute_command"] };

describe("callbackHooks: the SDK's hooks option as hook definitions", () => {
  it("maps Claude Code's names to cairn's events, keeps the matcher and timeout, and names each callback", () => {
    async function checkBash(): Promise<undefined> {
      return undefined;
    }
    const hooks = callbackHooks({
      PreToolUse: [{ matcher: "Bash", hooks: [checkBash, async () => undefined], timeout: 5 }],
      SessionStart: [{ matcher: "startup", hooks: [() => undefined] }],
    });
    expect(hooks.map((hook) => [hook.event, hook.configuredAs, hook.matcher, hook.command, hook.timeoutMs, hook.scope, hook.dialect, hook.origin.kind])).toEqual([
      ["PreToolUse", "PreToolUse", "Bash", "callback checkBash", 5000, "user", "claude-code", "callback"],
      ["PreToolUse", "PreToolUse", "Bash", "callback PreToolUse[Bash]", 5000, "user", "claude-code", "callback"],
      ["TaskStart", "SessionStart", "startup", "callback SessionStart[startup]", 60_000, "user", "claude-code", "callback"],
      ["TaskResume", "SessionStart", "startup", "callback SessionStart[startup]", 60_000, "user", "claude-code", "callback"],
    ]);
    // One per callback, as a command's is one for every event its name stands for.
    expect(new Set(hooks.map((hook) => hook.fingerprint)).size).toBe(3);
  });

  it("refuses an unknown event name, an entry without functions and a bad timeout when built", () => {
    expect(() => callbackHooks({ PreToolUseX: [{ hooks: [() => undefined] }] } as unknown as HookCallbacks)).toThrow(/hooks\.PreToolUseX: unknown hook event \(known: TaskStart, .*SessionStart/);
    expect(() => callbackHooks({ Stop: [{ hooks: ["echo hi"] }] } as unknown as HookCallbacks)).toThrow('hooks.Stop[0]: "hooks" must be a list of functions');
    expect(() => callbackHooks({ Stop: [{ hooks: [() => undefined], timeout: 0 }] })).toThrow(/"timeout" must be a positive number of seconds/);
  });
});

describe("callback hooks through HookRunner", () => {
  it("a callback gets the input a command reads on stdin, parsed, with the tool use id beside it", async () => {
    const seen: Array<{ input: HookCallbackInput; toolUseId: string | undefined }> = [];
    const command: HookDefinition = {
      event: "PreToolUse",
      configuredAs: "PreToolUse",
      command: `cat > "${folder}/stdin.json"`,
      timeoutMs: 60_000,
      scope: "user",
      origin: { kind: "settings", file: "test" },
      dialect: "claude-code",
      fingerprint: "c",
    };
    const callbacks = callbackHooks({ PreToolUse: [{ hooks: [(input, toolUseId) => void seen.push({ input, toolUseId })] }] });
    await runner([command, ...callbacks]).run("PreToolUse", bashCall, bashSubjects);
    const stdin = JSON.parse(await readFile(join(folder, "stdin.json"), "utf8")) as unknown;
    expect(seen).toEqual([{ input: stdin, toolUseId: "call-1" }]);
    expect(seen[0]?.input).toMatchObject({ hook_event_name: "PreToolUse", cairn_event: "PreToolUse", session_id: "task-1", cwd: folder, tool_name: "Bash", tool_input: { command: "rm -rf build" } });
  });

  it("its answer is read as a command's JSON: deny, ask, allow with updatedInput and context, continue:false", async () => {
    const answer = (output: Awaited<ReturnType<NonNullable<HookCallbacks["PreToolUse"]>[number]["hooks"][number]>>) =>
      runner(callbackHooks({ PreToolUse: [{ hooks: [async () => output] }] })).run("PreToolUse", bashCall, bashSubjects);
    expect(await answer({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no rm" } })).toMatchObject({ decision: "block", reason: "no rm" });
    expect(await answer({ decision: "block", reason: "top-level block" })).toMatchObject({ decision: "block", reason: "top-level block" });
    expect(await answer({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "check it" } })).toMatchObject({ decision: "ask", reason: "check it" });
    expect(await answer({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "rm -rf build/tmp" }, additionalContext: "narrowed" } })).toMatchObject({
      decision: "allow",
      updatedInput: { command: "rm -rf build/tmp" },
      updatedInputDialect: "claude-code",
      contexts: ["narrowed"],
    });
    expect(await answer({ continue: false, stopReason: "enough" })).toMatchObject({ stopReason: "enough" });
    expect(await answer(undefined)).toEqual({ ran: 1, contexts: [] });
  });

  it("a callback that throws blocks PreToolUse and UserPromptSubmit (fails closed) and is reported under its name", async () => {
    const reports: HookReport[] = [];
    const hooks = callbackHooks({
      PreToolUse: [
        {
          hooks: [
            function guardShell(): never {
              throw new Error("policy service unreachable");
            },
          ],
        },
      ],
      UserPromptSubmit: [{ hooks: [() => Promise.reject(new Error("scanner crashed"))] }],
    });
    const pre = await runner(hooks, reports).run("PreToolUse", bashCall, bashSubjects);
    expect(pre).toMatchObject({ decision: "block", reason: "the hook callback guardShell threw: policy service unreachable" });
    const prompt = await createTaskHooks(runner(hooks, reports)).userPromptSubmit?.({ taskId: "task-1", prompt: "hello" });
    expect(prompt).toEqual({ blocked: "the hook callback UserPromptSubmit threw: scanner crashed" });
    expect(reports.map((report) => report.result.exitCode)).toEqual([2, 2]);
    const described = describeHookReport(reports[0]!, folder);
    expect(described.text).toBe("PreToolUse hook callback guardShell threw: policy service unreachable; blocked (a failed PreToolUse callback fails closed)");
    expect(described.meta).toMatchObject({ hook: "callback guardShell", exitCode: 2, decision: "block" });
  });

  it("a slow callback times out, is told to stop through its signal, and blocks", async () => {
    let aborted = false;
    const reports: HookReport[] = [];
    const hooks = callbackHooks({
      PreToolUse: [
        {
          timeout: 0.1,
          hooks: [
            (_input, _id, { signal }) =>
              new Promise<undefined>((resolve) =>
                signal.addEventListener("abort", () => {
                  aborted = true;
                  setTimeout(() => resolve(undefined), 5_000);
                }),
              ),
          ],
        },
      ],
    });
    const started = Date.now();
    const result = await runner(hooks, reports).run("PreToolUse", bashCall, bashSubjects);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(result).toMatchObject({ decision: "block", reason: "the hook callback PreToolUse timed out after 0.1 s" });
    expect(aborted).toBe(true);
    expect(reports[0]?.result.timedOut).toBe(true);
  });

  it("a failed callback of an event that guards nothing is reported and blocks nothing; an answer that is not an object is a failure", async () => {
    const reports: HookReport[] = [];
    const hooks = callbackHooks({
      Stop: [
        {
          hooks: [
            () => {
              throw new Error("flaky");
            },
          ],
        },
      ],
      PreToolUse: [{ hooks: [() => "allow" as unknown as undefined] }],
    });
    const stop = await runner(hooks, reports).run("TaskComplete", { result: "done", stop_hook_active: false });
    expect(stop.decision).toBeUndefined();
    expect(reports[0]?.verdict.problem).toBe("threw: flaky");
    const pre = await runner(hooks).run("PreToolUse", bashCall, bashSubjects);
    expect(pre).toMatchObject({ decision: "block", reason: "the hook callback PreToolUse answered a string, not an object" });
  });

  it("cancelling the task cancels a running callback's wait, and its signal aborts", async () => {
    let aborted = false;
    const hooks = callbackHooks({ PreToolUse: [{ hooks: [(_input, _id, { signal }) => new Promise<undefined>(() => signal.addEventListener("abort", () => (aborted = true)))] }] });
    const reports: HookReport[] = [];
    const controller = new AbortController();
    const running = runner(hooks, reports).run("PreToolUse", bashCall, { ...bashSubjects, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const result = await running;
    expect(result.decision).toBeUndefined();
    expect(reports[0]?.verdict.problem).toBe("cancelled");
    expect(aborted).toBe(true);
  });

  it("UserPromptSubmit and SessionStart callbacks add context; SessionStart's matcher picks startup or resume", async () => {
    const hooks = callbackHooks({
      UserPromptSubmit: [{ hooks: [(input) => ({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: `prompt was ${input.prompt.length} characters` } })] }],
      SessionStart: [{ matcher: "resume", hooks: [(input) => ({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: `source ${input.source}` } })] }],
    });
    const taskHooks = createTaskHooks(runner(hooks));
    expect(await taskHooks.userPromptSubmit?.({ taskId: "task-1", prompt: "hello" })).toEqual({ context: '<hook_context event="UserPromptSubmit">\nprompt was 5 characters\n</hook_context>' });
    expect(await taskHooks.taskStart({ taskId: "task-1", task: "hello" })).toEqual({});
    expect(await taskHooks.taskResume?.({ taskId: "task-1" })).toEqual({ context: '<hook_context event="TaskResume">\nsource resume\n</hook_context>' });
  });
});
