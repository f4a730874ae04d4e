/**
 * The SDK's errors. Setting up a task throws the same classes the CLI reports
 * (a bad option: `ConfigError`; a data folder that cannot be made:
 * `DataFolderError`; an unknown task id: `TaskNotFoundError`; a bad MCP
 * server entry: `McpConfigError`); a provider's failure ends the task as
 * `failed`, and `ProviderError` (with its `kind`) is the class of what the
 * providers throw.
 */
import type { AskType } from "../task/contracts/messages.js";

export { ConfigError } from "../config/errors.js";
export { DataFolderError } from "../store/data-folder.js";
export { TaskNotFoundError } from "../store/task-store.js";
export { TaskLockedError } from "../store/lock.js";
export { McpConfigError } from "../mcp/config.js";
export { ProviderError } from "../llm/errors.js";

/** An ask nobody answered, under `unansweredAsks: "fail"`: the task ends as failed with this error. */
export class UnansweredAskError extends Error {
  readonly askKind: AskType;
  readonly askId: string;

  constructor(askKind: AskType, askId: string) {
    super(`no answer to the "${askKind}" ask (id ${askId}): neither canUseTool nor onAsk answered it and unansweredAsks is "fail".`);
    this.name = "UnansweredAskError";
    this.askKind = askKind;
    this.askId = askId;
  }
}

/** A follow-up message for a task whose run has ended: resume it with `resumeTask(taskId, { prompt })`. */
export class TaskEndedError extends Error {
  constructor(taskId: string) {
    super(`task ${taskId} has ended; continue it with resumeTask("${taskId}", { prompt })`);
    this.name = "TaskEndedError";
  }
}
