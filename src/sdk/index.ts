/**
 * cairn as a library (docs/sdk.md): start, follow, steer and resume tasks
 * from a program, with tools and hooks defined in code. It never prints and
 * never reads stdin.
 */
export { startTask, resumeTask, CairnTask, type ResumeOptions } from "./cairn-task.js";
export { readTask, listTasks, type TaskRecord } from "./read-task.js";
export type { AskAnswer, BudgetOptions, CanUseTool, PermissionMode, TaskOptions, ToolUseDecision, ToolUseRequest } from "./options.js";
export type { AskEvent, CairnEvent, DeltaEvent, MessageEvent, ResultEvent } from "./events.js";
export { isDelta } from "./events.js";
export { customTool as tool, InvalidCustomToolError, type CustomToolContext, type CustomToolResult, type CustomToolSpec } from "../tools/custom-tool.js";
export type { HookCallback, HookCallbackInput, HookCallbackMatcher, HookCallbackOutput, HookCallbacks } from "../hooks/callback-hooks.js";
export { ConfigError, DataFolderError, McpConfigError, ProviderError, TaskEndedError, TaskLockedError, TaskNotFoundError, UnansweredAskError } from "./errors.js";
export type { TaskSummary } from "../store/types.js";
export type { UiMessage, AskType, SayType, AskResponse } from "../task/contracts/messages.js";
export type { RunSummary } from "../session/run-summary.js";
export type { ProviderName, ToolProtocol } from "../config/index.js";
/** For those who go deeper: the session core and the Task with its contracts. */
export { createSession, type Session, type SessionOptions } from "../session/session.js";
export { Task, type TaskResult } from "../task/task.js";
export type { Host } from "../task/contracts/host.js";
export type { ToolExecutor } from "../task/contracts/tool-executor.js";
export type { Provider } from "../llm/types.js";
