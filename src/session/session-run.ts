/**
 * What `Session.run` does: the notices that came while the session was built
 * are said, the typed task or message gets its MCP references expanded (the
 * same expansion as for later messages, `expandMessage`), and the task starts
 * or continues its log.
 */
import type { ContentBlock, ImageContent } from "../llm/types.js";
import type { McpNotificationMeta } from "../task/contracts/message-meta.js";
import type { Task, TaskResult } from "../task/task.js";

export interface SessionRun {
  task: Task;
  start: { kind: "new"; task: string } | { kind: "resume"; message?: string };
  images: ImageContent[];
  /** Notices said before the host listened; said first. */
  early: Array<{ text: string; meta?: McpNotificationMeta }>;
  current: { started?: boolean };
  /** The session's expansion of a typed message (MCP references). */
  expandMessage(text: string): Promise<string>;
  /** The UserPromptSubmit hook on a resumed task's message, with the content the resumed task continues with. */
  resumeMessage(message: string | undefined, content: ContentBlock[]): Promise<{ blocked: string } | { content: ContentBlock[] }>;
  resumedContent: ContentBlock[];
  /** The task's trace (#36), ended with the task's result. */
  telemetry?: { end(result: TaskResult): void };
}

/** Images from an editor's prompt (`start.images`) or the terminal (`options.images`), for models that take them; a note says when they were dropped. */
export function imagesToSend(parts: {
  model: { id: string; supportsImages?: boolean };
  start: { images?: ImageContent[] };
  options: { images?: ImageContent[]; onNotice?: (text: string) => void };
  say: (note: string) => void;
}): ImageContent[] {
  const { model, start, options } = parts;
  const images = model.supportsImages === true ? [...(start.images ?? []), ...(options.images ?? [])] : [];
  if ((options.images?.length ?? 0) > 0 && images.length === 0) {
    const note = `${model.id} does not accept images; the attached images were not sent.`;
    if (options.onNotice) options.onNotice(note);
    else parts.say(note);
  }
  return images;
}

export async function runSessionTask(run: SessionRun): Promise<TaskResult> {
  const { task, start } = run;
  const ended = (result: TaskResult): TaskResult => {
    run.telemetry?.end(result);
    return result;
  };
  // Notices that came while the session was built (an MCP server that failed at once), now that the host listens.
  run.current.started = true;
  for (const { text, meta } of run.early.splice(0)) task.say("mcp_notification", text, meta ? { meta } : {});
  if (start.kind === "new") return ended(await task.startTask(await run.expandMessage(start.task), run.images));
  const message = start.message === undefined ? undefined : await run.expandMessage(start.message);
  const prompt = await run.resumeMessage(message, run.resumedContent);
  if ("blocked" in prompt) {
    task.say("error", `A UserPromptSubmit hook blocked this message: ${prompt.blocked}`);
    return { status: "failed", error: prompt.blocked };
  }
  // The model gets the message with the resumed content: the transcript (the log, cairn show,
  // a later resume, session/load in an editor) records it too, whichever host resumed the task.
  if (message !== undefined && message.trim() !== "") task.say("user_feedback", message);
  return ended(await task.resumeTask([...prompt.content, ...run.images]));
}
