/** The Task's hook points (TaskHooks) answered by the hook runner. */
import type { HookContext, PromptHookResult, TaskHooks } from "../task/contracts/seams.js";
import type { HookRunner } from "./hook-runner.js";
import { hookContextText } from "./hook-runner.js";

function contextOf(text: string | undefined): HookContext {
  return text === undefined ? {} : { context: text };
}

export function createTaskHooks(runner: HookRunner, options: { signal?: () => AbortSignal | undefined } = {}): TaskHooks {
  const signal = (): { signal?: AbortSignal } => {
    const current = options.signal?.();
    return current ? { signal: current } : {};
  };
  return {
    taskStart: async ({ task }) => {
      const result = await runner.run("TaskStart", { task, source: "startup" }, { subjects: ["startup"], ...signal() });
      return contextOf(hookContextText("TaskStart", result.contexts));
    },
    taskResume: async () => {
      const result = await runner.run("TaskResume", { source: "resume" }, { subjects: ["resume"], ...signal() });
      return contextOf(hookContextText("TaskResume", result.contexts));
    },
    userPromptSubmit: async ({ prompt }): Promise<PromptHookResult> => {
      const result = await runner.run("UserPromptSubmit", { prompt }, signal());
      if (result.decision === "block") return { blocked: result.reason ?? "no reason given" };
      if (result.stopReason !== undefined) return { blocked: result.stopReason };
      return contextOf(hookContextText("UserPromptSubmit", result.contexts));
    },
    preCompact: async ({ trigger }) => {
      const result = await runner.run("PreCompact", { trigger, custom_instructions: "" }, { subjects: [trigger], ...signal() });
      return contextOf(hookContextText("PreCompact", result.contexts));
    },
    // Runs after the abort: the task's signal is already aborted, so only the runner's own cancel applies.
    taskCancel: async () => {
      await runner.run("TaskCancel", { reason: "cancelled" }, { subjects: ["cancelled"] });
    },
    cancelRunning: () => runner.cancelRunning(),
    hasTaskCancel: () => runner.has("TaskCancel"),
  };
}
