/**
 * The user's messages of a task as points to go back to (rewind, fork): the
 * task itself is message 1, each message the user sent after it the next. The
 * conversation "before message N" is read by replaying the log up to the entry
 * where that message first appeared, so it is exact after compactions, drops
 * and restores that came later (the history then was a different list).
 */
import { readFile } from "node:fs/promises";
import type { Message } from "../llm/types.js";
import type { UiMessage } from "../task/contracts/messages.js";
import { LogReplay, parseLogLine } from "./log-reader.js";

export interface UserMessagePoint {
  /** 1 for the task, then in order. */
  number: number;
  /** Its index among the task's UI messages. */
  index: number;
  id: string;
  text: string;
  ts: number;
}

/** The task and every message the user sent in it, in order. */
export function userMessagesOf(messages: readonly UiMessage[]): UserMessagePoint[] {
  const points: UserMessagePoint[] = [];
  messages.forEach((message, index) => {
    if (message.type !== "say" || message.partial || (message.say !== "task" && message.say !== "user_feedback")) return;
    points.push({ number: points.length + 1, index, id: message.id, text: message.text, ts: message.ts });
  });
  return points;
}

/** Message `number` of the task, or an error that says which numbers there are. */
export function userMessageNumbered(messages: readonly UiMessage[], number: number, taskId: string): UserMessagePoint {
  const points = userMessagesOf(messages);
  const point = points.find((candidate) => candidate.number === number);
  if (point !== undefined) return point;
  const range = points.length === 0 ? "it has none" : points.length === 1 ? "it has only message 1 (the task)" : `choose 1 to ${points.length}`;
  throw new Error(`task ${taskId} has no message ${number} of yours: ${range}. List them with \`cairn rewind ${taskId}\`.`);
}

/**
 * The API conversation as it stood just before the UI message `messageId` first appeared in the log at
 * `logPath`. A message that answers a question of the model's comes while the model's turn is still open
 * (its answer is recorded once its tools are done): that turn is part of what came before.
 */
export async function apiHistoryBefore(logPath: string, messageId: string): Promise<Message[]> {
  const text = await readFile(logPath, "utf8");
  const replay = new LogReplay();
  let found = false;
  for (const line of text.split("\n")) {
    const entry = parseLogLine(line);
    if (entry === undefined) continue;
    if (!found) {
      if (entry.kind === "ui" && entry.message.id === messageId) found = true;
      else replay.apply(entry);
      continue;
    }
    if (entry.kind === "ui" || entry.kind === "status") continue;
    if (entry.kind === "api" && entry.message.role === "assistant") replay.apply(entry);
    break;
  }
  if (!found) throw new Error(`message ${messageId} is not in the task's log ${logPath}`);
  return replay.apiHistory.slice();
}

/** One line per message, for a list to choose from: `  3  12:04  fix the failing test`. */
export function describeUserMessages(points: readonly UserMessagePoint[]): string[] {
  return points.map((point) => {
    const time = new Date(point.ts).toTimeString().slice(0, 5);
    const firstLine = point.text.trim().split("\n")[0] ?? "";
    const shown = firstLine.length > 70 ? `${firstLine.slice(0, 69)}…` : firstLine;
    return `${String(point.number).padStart(3)}  ${time}  ${shown}`;
  });
}
