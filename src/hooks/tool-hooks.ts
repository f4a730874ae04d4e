/**
 * PreToolUse, PermissionRequest, PostToolUse / PostToolUseFailure and
 * TaskComplete, wrapped around the ToolExecutor the way MCP's native tools
 * are: the Task and the tools know nothing of hooks.
 *
 * Each hook is told about the call in its own dialect: Claude Code's tool
 * names and shapes for hooks in Claude Code's format, cairn's for cairn's own.
 */
import type { ToolUseBlock } from "../parser/types.js";
import { askCardMeta } from "../task/contracts/message-meta.js";
import type { SayMeta } from "../task/contracts/message-meta.js";
import type { AskResponse, SayType } from "../task/contracts/messages.js";
import type { ToolCallContext, ToolExecutor, ToolOutcome } from "../task/contracts/tool-executor.js";
import { withExecuteTool } from "../task/contracts/tool-executor.js";
import { paramsFromUpdatedInput } from "./claude-code-input.js";
import { claudeCodeToolResponse, claudeCodeToolView, type HookToolView } from "./claude-code-tools.js";
import type { HookDialect } from "./hook-definition.js";
import type { CombinedHookResult, HookRunner } from "./hook-runner.js";
import { hookContextText } from "./hook-runner.js";
import { hookToolInput, matchableToolNames } from "./tool-names.js";

export interface ToolHookOptions {
  runner: HookRunner;
  /** The workspace: Claude Code's hooks get absolute paths. */
  workspace: string;
  /** `continue: false` from a hook after a tool: the task stops. */
  stopTask: (reason: string) => void;
}

/** Asks that are an approval of the call (the approval policy marks them). */
const approvalAsks = new Set(["tool", "command", "use_mcp_server"]);

/** One call as each dialect's hooks see it. */
export interface ToolCallViews {
  call: Pick<ToolUseBlock, "id" | "name" | "params">;
  of(dialect: HookDialect): HookToolView;
}

export function viewsOf(call: Pick<ToolUseBlock, "id" | "name" | "params">, workspace: string): ToolCallViews {
  // Each view is made when a hook of its dialect first needs it: most sessions have hooks of one dialect only.
  const made: Partial<Record<HookDialect, HookToolView>> = {};
  const make = (dialect: HookDialect): HookToolView => {
    if (dialect === "claude-code") return claudeCodeToolView(call, workspace);
    const input = hookToolInput(call.params);
    return { name: call.name, input, subjects: matchableToolNames(call.name, input) };
  };
  return { call, of: (dialect) => (made[dialect] ??= make(dialect)) };
}

export function toolPayload(views: ToolCallViews, extra: (view: HookToolView, dialect: HookDialect) => Record<string, unknown> = () => ({})) {
  return (dialect: HookDialect): Record<string, unknown> => {
    const view = views.of(dialect);
    return { tool_name: view.name, tool_input: view.input, tool_use_id: views.call.id, ...extra(view, dialect) };
  };
}

function appendText(content: ToolOutcome["content"], text: string): ToolOutcome["content"] {
  return typeof content === "string" ? `${content}\n\n${text}` : [...content, { type: "text", text }];
}

function responseText(content: ToolOutcome["content"]): string {
  return typeof content === "string" ? content : content.map((part) => (part.type === "text" ? part.text : "[image]")).join("\n");
}

/** A guard that could not run must not be skipped: the call is blocked, and the model and the user are told why. */
function notStartedReason(event: "PreToolUse" | "PermissionRequest", result: CombinedHookResult): string | undefined {
  if (result.notStarted === undefined) return undefined;
  return `A ${event} hook could not start, so this call was blocked rather than run unchecked: ${result.notStarted.join("; ")}. Tell the user; the hook must be fixed (or trusted again) before this can run.`;
}

/**
 * The call's card, final, as the complete call reads (its preview may have been
 * shown mid-stream, cut short) and marked blocked with the hook's reason: the
 * user sees what did not run and why, and no surface takes it for running.
 */
function showBlocked(executor: ToolExecutor, block: ToolUseBlock, context: ToolCallContext, reason: string): void {
  executor.presentPartial(block, {
    ...context,
    say: <T extends SayType>(type: T, text: string, options?: { meta?: SayMeta<T>; key?: string }) => {
      // Every tool card's meta has `blocked` (ToolCardMeta); the preview's say type is a card's.
      const meta = { ...options?.meta, blocked: reason } as SayMeta<T>;
      context.say(type, text, { ...options, partial: false, meta });
    },
  });
}

export function withToolHooks(executor: ToolExecutor, options: ToolHookOptions): ToolExecutor {
  const { runner, workspace } = options;
  const toolEvents = ["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "TaskComplete"] as const;
  if (!toolEvents.some((event) => runner.has(event))) return executor;

  /** PermissionRequest: hooks may answer the approval before the user is asked. */
  const withPermissionHooks = (context: ToolCallContext, views: ToolCallViews): ToolCallContext => ({
    ...context,
    ask: async (type, text, askOptions): Promise<AskResponse> => {
      const meta = askCardMeta(type, askOptions?.meta);
      if (approvalAsks.has(type) && meta?.approval === "ask") {
        const answer = await runner.run(
          "PermissionRequest",
          toolPayload(views, () => ({ message: text })),
          { subjects: (dialect) => views.of(dialect).subjects, signal: context.signal },
        );
        const failed = notStartedReason("PermissionRequest", answer);
        if (failed !== undefined) return { response: "no", text: failed };
        if (answer.decision === "block") return { response: "no", text: `A PermissionRequest hook denied this: ${answer.reason ?? "no reason given"}` };
        if (answer.decision === "allow" && meta.hookMayApprove !== false) return { response: "yes" };
      }
      return context.ask(type, text, askOptions);
    },
  });

  return withExecuteTool(executor, async (block, context) => {
    let views = viewsOf(block, workspace);
    let callContext = context;
    const contexts: string[] = [];
    const pre = await runner.run("PreToolUse", toolPayload(views), { subjects: (dialect) => views.of(dialect).subjects, signal: context.signal });
    const failed = notStartedReason("PreToolUse", pre);
    if (failed !== undefined) {
      showBlocked(executor, block, context, `it could not start (${pre.notStarted?.join("; ") ?? ""}), so the call did not run`);
      return { status: "rejected", content: failed };
    }
    if (pre.decision === "block") {
      const reason = pre.reason ?? "no reason given";
      showBlocked(executor, block, context, reason);
      return { status: "rejected", content: `A PreToolUse hook blocked this ${block.name} call: ${reason}` };
    }
    if (pre.stopReason !== undefined) {
      // `continue: false` before the call: nothing runs, and the task stops.
      options.stopTask(pre.stopReason);
      return { status: "rejected", content: `A PreToolUse hook stopped the task before this ${block.name} call: ${pre.stopReason}` };
    }
    if (pre.updatedInput !== undefined) {
      const dialect = pre.updatedInputDialect ?? "cairn";
      const mapped = paramsFromUpdatedInput({ block, dialect, view: views.of(dialect), updated: pre.updatedInput, workspace });
      // Running the original call would ignore what the hook asked for: blocked instead.
      if ("problem" in mapped) return { status: "rejected", content: `${mapped.problem}. The call was blocked.` };
      // The rewritten call goes through the same checks and approval as any other.
      views = viewsOf({ ...block, params: mapped.params }, workspace);
    }
    const call: ToolUseBlock = { ...block, params: views.call.params };
    if (pre.decision === "allow") callContext = { ...callContext, hookApproval: "allow" };
    if (pre.decision === "ask") {
      // Claude Code's "ask": a person must confirm. --yes is no person, and no hook may answer it.
      callContext = { ...callContext, hookApproval: "ask-explicit", ...(pre.reason === undefined ? {} : { hookApprovalReason: pre.reason }) };
    }
    contexts.push(...pre.contexts);
    if (runner.has("PermissionRequest")) callContext = withPermissionHooks(callContext, views);

    const started = Date.now();
    let outcome = await executor.executeTool(call, callContext);
    const executionTimeMs = Date.now() - started;

    // As in Claude Code: PostToolUse after a call that succeeded, PostToolUseFailure after one that failed; neither when the user refused it.
    const subjects = (dialect: HookDialect) => views.of(dialect).subjects;
    const failedCall = outcome.status === "error" || outcome.status === "mistake";
    const postEvent = outcome.status === "success" ? "PostToolUse" : failedCall ? "PostToolUseFailure" : undefined;
    const post: CombinedHookResult =
      postEvent === undefined || runner.matching(postEvent, subjects).length === 0
        ? { ran: 0, contexts: [] }
        : await runner.run(
            postEvent,
            toolPayload(views, (view, dialect) => ({
              ...(postEvent === "PostToolUseFailure"
                ? { error: responseText(outcome.content), is_interrupt: context.signal.aborted }
                : { tool_response: dialect === "claude-code" ? claudeCodeToolResponse(view, outcome) : { status: outcome.status, content: responseText(outcome.content) } }),
              // Cline's PostToolUse says how long the call took.
              ...(dialect === "cline" ? { execution_time_ms: executionTimeMs } : {}),
            })),
            { subjects, signal: context.signal },
          );
    // Claude Code's PostToolUse `decision: "block"` (or exit 2) tells the model the reason.
    if (post.decision === "block" && post.reason !== undefined) contexts.push(post.reason);
    contexts.push(...post.contexts);
    const framed = hookContextText(post.ran > 0 && postEvent !== undefined ? postEvent : "PreToolUse", contexts);
    if (framed !== undefined) outcome = { ...outcome, content: appendText(outcome.content, framed) };
    if (post.stopReason !== undefined) options.stopTask(post.stopReason);
    // A hook runs a command, which may have changed any file: the turn's checkpoint then scans the workspace.
    if (pre.ran > 0 || post.ran > 0) await context.beforeMutation();

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
