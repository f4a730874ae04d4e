import type { ContentBlock, Message, ToolResultContent, ToolUseContent } from "../llm/types.js";
import type { UiMessage } from "../task/contracts/messages.js";
import type { LoadedTask } from "./types.js";

export interface PreparedResume {
  /** The history to continue from; the next request sends it plus `nextUserContent`. */
  apiHistory: Message[];
  /** The messages to show again, without the leftovers of the interruption. */
  uiMessages: UiMessage[];
  /** The user turn that continues the task. */
  nextUserContent: ContentBlock[];
  /** The task had finished (its last word was a completion) before this resume. */
  wasCompleted: boolean;
}

/** What the model sees for a tool call that never reported back. */
export const interruptedToolResultText = "[interrupted: the task was interrupted before this tool call finished; it is not known whether it ran. Check the current state before you retry it.]";

/** "3 minutes ago", "2 hours ago", "5 days ago". */
export function describeTimeAgo(elapsedMs: number): string {
  const minutes = Math.floor(Math.max(0, elapsedMs) / 60_000);
  if (minutes < 1) return "less than a minute ago";
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? "" : "s"} ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} hour${hours === 1 ? "" : "s"} ago`;
  const days = Math.floor(hours / 24);
  return `${days} day${days === 1 ? "" : "s"} ago`;
}

function isResumeAsk(message: UiMessage): boolean {
  return message.type === "ask" && (message.ask === "resume_task" || message.ask === "resume_completed_task");
}

/** The UI messages as they were before the interruption, minus its leftovers. */
function trimUiMessages(messages: UiMessage[]): UiMessage[] {
  const trimmed = [...messages];
  // Asks from earlier resumes that the user never answered.
  while (trimmed.length > 0 && isResumeAsk(trimmed[trimmed.length - 1]!)) trimmed.pop();
  // A request that was started and never got an answer.
  const last = trimmed[trimmed.length - 1];
  if (last?.type === "say" && last.say === "api_req_started") trimmed.pop();
  return trimmed;
}

function isEnvironmentDetails(block: ContentBlock): boolean {
  return block.type === "text" && block.text.trimStart().startsWith("<environment_details>");
}

function toolUses(message: Message | undefined): ToolUseContent[] {
  if (message?.role !== "assistant") return [];
  return message.content.filter((block): block is ToolUseContent => block.type === "tool_use");
}

/**
 * Turns a loaded task into the state to continue from, as the seed's resume does:
 * the leftovers of the interruption are dropped, every tool call without a result gets
 * an explicit "interrupted" result, and the model is told what happened. Pure.
 * `workingDirectory`: where the task works now, when that is not its workspace (a writing subagent's own worktree).
 */
export function prepareResume(loaded: LoadedTask, options: { now: number; userMessage?: string; workspaceChange?: string; workingDirectory?: string }): PreparedResume {
  const uiMessages = trimUiMessages(loaded.uiMessages);
  const lastUi = uiMessages[uiMessages.length - 1];
  const wasCompleted = loaded.status === "completed" || (lastUi?.type === "ask" && lastUi.ask === "completion_result");

  const apiHistory = [...loaded.apiHistory];
  // A user turn with no answer after it: the request was cut off. Send its content again.
  const carried: ContentBlock[] = [];
  const lastApi = apiHistory[apiHistory.length - 1];
  if (lastApi?.role === "user") {
    apiHistory.pop();
    // Its environment details are stale: the resumed request carries fresh ones of its own.
    carried.push(...lastApi.content.filter((block) => !isEnvironmentDetails(block)));
  }

  const results: ContentBlock[] = [];
  for (const use of toolUses(apiHistory[apiHistory.length - 1])) {
    const existing = carried.find((block): block is ToolResultContent => block.type === "tool_result" && block.toolUseId === use.id);
    results.push(existing ?? { type: "tool_result", toolUseId: use.id, content: interruptedToolResultText, isError: true });
  }
  // Tool results lead the turn (providers require it); any other carried content follows.
  const otherCarried = carried.filter((block) => block.type !== "tool_result");
  const strayResults = carried.filter((block) => block.type === "tool_result" && !results.includes(block));

  const nextUserContent: ContentBlock[] = [...results, ...strayResults, ...otherCarried];
  if (apiHistory.length === 0 && otherCarried.length === 0) {
    // Nothing of the task reached the history: give the model the task itself.
    nextUserContent.push({ type: "text", text: `<task>\n${loaded.meta.task}\n</task>` });
  }

  const lastActivity = lastUi?.ts ?? loaded.updatedAt;
  const ago = describeTimeAgo(options.now - lastActivity);
  const notice = wasCompleted
    ? `[TASK RESUMPTION] This task was completed ${ago} and the user has reopened it. ` + `The files may have changed since then. The working directory is '${options.workingDirectory ?? loaded.meta.workspace}'.`
    : `[TASK RESUMPTION] This task was interrupted ${ago}, so it may or may not be finished: look at where it stands before going on. ` +
      `The files may have changed since then. The working directory is '${options.workingDirectory ?? loaded.meta.workspace}'. ` +
      `A tool call marked as interrupted may or may not have run: check its effect before repeating it.`;
  nextUserContent.push({ type: "text", text: notice });
  // What the user changed in the workspace in between (/undo, /restore): the model reads those files again.
  if (options.workspaceChange !== undefined) {
    nextUserContent.push({ type: "text", text: `[WORKSPACE CHANGED BY THE USER] ${options.workspaceChange} Read these files again before relying on what you saw of them.` });
  }

  const userMessage = options.userMessage?.trim();
  if (userMessage !== undefined && userMessage !== "") {
    nextUserContent.push({
      type: "text",
      text: `${wasCompleted ? "The user has new feedback on the task" : "The user added a message"}:\n<feedback>\n${userMessage}\n</feedback>`,
    });
  }
  return { apiHistory, uiMessages, nextUserContent, wasCompleted };
}
