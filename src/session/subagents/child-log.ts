/**
 * A subagent's task log once the folder it works in is known: the new child's
 * log (made when it started, linked from its parent's), or an interrupted
 * child's opened again, told that folder, with the history it goes on from.
 */
import type { ContentBlock } from "../../llm/types.js";
import type { TaskLogWriter } from "../../store/log-writer.js";
import { openForResume } from "../../store/resume-task.js";
import type { TaskStore } from "../../store/task-store.js";
import type { TaskOptions } from "../../task/task.js";
import type { PreviousChild } from "./subagent-earlier-runs.js";

export interface ChildLog {
  writer: TaskLogWriter;
  /** Only for a child of an earlier run of its parent. */
  resumed?: { history: NonNullable<TaskOptions["history"]>; content: ContentBlock[] };
}

export async function openChildLog(store: TaskStore, created: TaskLogWriter | undefined, previous: PreviousChild | undefined, cwd: string): Promise<ChildLog> {
  if (created !== undefined) return { writer: created };
  if (previous === undefined) throw new Error("a subagent is either new or resumed");
  const opened = await openForResume(store, previous.taskId, { now: Date.now(), workingDirectory: cwd });
  const { tokensIn, tokensOut, cost } = opened.loaded;
  return {
    writer: opened.writer,
    resumed: { history: { apiHistory: opened.resume.apiHistory, uiMessages: opened.resume.uiMessages, usage: { tokensIn, tokensOut, cost } }, content: opened.resume.nextUserContent },
  };
}
