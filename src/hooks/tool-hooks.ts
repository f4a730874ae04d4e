/**
 * PreToolUse, PostToolUse, PermissionRequest and TaskComplete, wrapped around
 * the ToolExecutor the way MCP's native tools are: the Task and the tools know
 * nothing of hooks.
 */
import type { ToolUseBlock } from "../parser/types.js";
import { askCardMeta } from "../task/contracts/message-meta.js";
import type { AskResponse } from "../task/contracts/messages.js";
import type { ToolCallContext, ToolExecutor, ToolOutcome } from "../task/contracts/tool-executor.js";
import { withExecuteTool } from "../task/contracts/tool-executor.js";
import type { HookRunner } from "./hook-runner.js";
import { hookContextText } from "./hook-runner.js";
import { hookToolInput, matchableToolNames, toolParamsFromHook } from "./tool-names.js";

export interface ToolHookOptions {
  runner: HookRunner;
  /** `continue: false` from a hook after a tool: the task stops. */
  stopTask: (reason: string) => void;
}

/** Asks that are an approval of the call (the approval policy marks them). */
const approvalAsks = new Set(["tool", "command", "use_mcp_server"]);

function appendText(content: ToolOutcome["content"], text: string): ToolOutcome["content"] {
  return typeof content === "string" ? `${content}\n\n${text}` : [...content, { type: "text", text }];
}

function responseText(content: ToolOutcome["content"]): string {
  return typeof content === "string" ? content : content.map((part) => (part.type === "text" ? part.text : "[image]")).join("\n");
}

export function withToolHooks(executor: ToolExecutor, options: ToolHookOptions): ToolExecutor {
  const { runner } = options;
  const toolEvents = ["PreToolUse", "PostToolUse", "PermissionRequest", "TaskComplete"] as const;
  if (!toolEvents.some((event) => runner.has(event))) return executor;

  /** PermissionRequest: hooks may answer the approval before the user is asked. */
  const withPermissionHooks = (context: ToolCallContext, block: ToolUseBlock, input: Record<string, unknown>): ToolCallContext => ({
    ...context,
    ask: async (type, text, askOptions): Promise<AskResponse> => {
      const meta = askCardMeta(type, askOptions?.meta);
      if (approvalAsks.has(type) && meta?.approval === "ask") {
        const subjects = matchableToolNames(block.name, input);
        const answer = await runner.run("PermissionRequest", { tool_name: block.name, tool_input: input, tool_use_id: block.id, message: text }, { subjects, signal: context.signal });
        if (answer.decision === "block") return { response: "no", text: `A PermissionRequest hook denied this: ${answer.reason ?? "no reason given"}` };
        if (answer.decision === "allow" && meta.hookMayApprove !== false) return { response: "yes" };
      }
      return context.ask(type, text, askOptions);
    },
  });

  return withExecuteTool(executor, async (block, context) => {
    let call = block;
    let input = hookToolInput(block.params);
    let callContext = context;
    const contexts: string[] = [];
    const pre = await runner.run("PreToolUse", { tool_name: block.name, tool_input: input, tool_use_id: block.id }, { subjects: matchableToolNames(block.name, input), signal: context.signal });
    if (pre.decision === "block") {
      return { status: "rejected", content: `A PreToolUse hook blocked this ${block.name} call: ${pre.reason ?? "no reason given"}` };
    }
    if (pre.stopReason !== undefined) {
      // `continue: false` before the call: nothing runs, and the task stops.
      options.stopTask(pre.stopReason);
      return { status: "rejected", content: `A PreToolUse hook stopped the task before this ${block.name} call: ${pre.stopReason}` };
    }
    if (pre.updatedInput !== undefined) {
      // The rewritten call goes through the same checks and approval as any other.
      call = { ...block, params: toolParamsFromHook(pre.updatedInput, block.params) };
      input = hookToolInput(call.params);
    }
    if (pre.decision === "allow" || pre.decision === "ask") callContext = { ...callContext, hookApproval: pre.decision };
    contexts.push(...pre.contexts);
    if (runner.has("PermissionRequest")) callContext = withPermissionHooks(callContext, call, input);

    let outcome = await executor.executeTool(call, callContext);

    const postSubjects = matchableToolNames(call.name, input);
    const post =
      runner.matching("PostToolUse", postSubjects).length === 0
        ? { ran: 0, contexts: [] as string[] }
        : await runner.run(
            "PostToolUse",
            { tool_name: call.name, tool_input: input, tool_use_id: call.id, tool_response: { status: outcome.status, content: responseText(outcome.content) } },
            { subjects: postSubjects, signal: context.signal },
          );
    // Claude Code's PostToolUse `decision: "block"` tells the model the reason.
    if (post.decision === "block" && post.reason !== undefined) contexts.push(post.reason);
    contexts.push(...post.contexts);
    const framed = hookContextText(post.ran > 0 ? "PostToolUse" : "PreToolUse", contexts);
    if (framed !== undefined) outcome = { ...outcome, content: appendText(outcome.content, framed) };
    if (post.stopReason !== undefined) options.stopTask(post.stopReason);

    if (outcome.completed === true) {
      const done = await runner.run("TaskComplete", { result: call.params["result"] ?? "", stop_hook_active: false }, { signal: context.signal });
      // Claude Code's Stop hook: `decision: "block"` means "not done yet", and the reason says why.
      if (done.decision === "block") {
        const { completed: _completed, ...rest } = outcome;
        outcome = { ...rest, status: "success", content: `A TaskComplete hook says the task is not finished: ${done.reason ?? "no reason given"}` };
      }
    }
    return outcome;
  });
}
