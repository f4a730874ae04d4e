/**
 * A task as a client that polls sees it (`cairn mcp serve`'s tools, docs/mcp.md): its durable events after a
 * sequence number, waiting a while for new ones (a long poll), and its result with the patch of what it changed.
 * Everything is read from the task's log and the registry's runs, as `cairn serve`'s stream is.
 */
import type { SayMessage, UiMessage } from "../task/contracts/messages.js";
import { taskPatch } from "./checkpoint-routes.js";
import { durableEvent } from "./event-frames.js";
import { readLogAfter } from "./log-positions.js";
import type { TaskRegistry, TaskRow } from "./task-registry.js";

/** Events one page holds at most; `more` says a next page waits. */
const pageSize = 100;
/** Characters of an event's text a page holds; the rest is cut with a note (the task's log keeps all). */
const textLimit = 8_000;
/** After a wake-up, how long the run may take to open the ask it has just logged. */
const settleMs = 25;

export interface PendingAsk {
  askId: string;
  ask: string;
  text: string;
}

export interface FollowPage {
  taskId: string;
  status: TaskRow["status"];
  running: boolean;
  /** The events after `after`, oldest first, each with its `seq`. */
  events: Array<Record<string, unknown>>;
  /** Give this as `after` to get what comes next. */
  next: number;
  /** More events are in the log already: ask again at once. */
  more: boolean;
  /** The asks waiting for an answer (answer them with their `askId`). */
  pendingAsks: PendingAsk[];
}

export interface TaskOutcome {
  taskId: string;
  title: string;
  workspace: string;
  status: TaskRow["status"];
  running: boolean;
  /** The task's last answer: its completion result, or its last text or error. */
  finalText: string | null;
  cost: number;
  tokensIn: number;
  tokensOut: number;
  pendingAsks: PendingAsk[];
  /** The unified diff of what the task changed in its folder (its first checkpoint to the files now), or null without checkpoints. */
  patch: string | null;
  patchNote?: string;
}

/** The events of a task after `after`; with `waitMs`, a running task with nothing new is waited on that long. */
export async function followTask(registry: TaskRegistry, taskId: string, after: number, waitMs: number): Promise<FollowPage> {
  let page = await readPage(registry, taskId, after);
  if (page.events.length === 0 && waitMs > 0 && registry.runOf(taskId) !== undefined) {
    await waitForChange(registry, taskId, page.next, waitMs, (frame) => frame.startsWith("id: ") || isResultFrame(frame));
    page = await readPage(registry, taskId, after);
  }
  const { task, messages } = await registry.detail(taskId);
  return { taskId, status: task.status, running: task.running, ...page, pendingAsks: pendingAsks(registry, taskId, messages) };
}

/** The task's outcome; with `waitMs`, a running task is waited on until it ends or asks something, at most that long. */
export async function taskOutcome(registry: TaskRegistry, taskId: string, waitMs: number): Promise<TaskOutcome> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const run = registry.runOf(taskId);
    const left = deadline - Date.now();
    if (run === undefined || run.openAsks().length > 0 || left <= 0) break;
    // The first state frame is the one every subscription starts with; a later one is a change (an ask, an answer, the end).
    let states = 0;
    const wakes = (frame: string): boolean => isResultFrame(frame) || (frame.includes('"type":"state"') && ++states > 1);
    await waitForChange(registry, taskId, Number.POSITIVE_INFINITY, left, wakes);
  }
  const { task, messages } = await registry.detail(taskId);
  const outcome: TaskOutcome = {
    taskId,
    title: task.title,
    workspace: task.workspace,
    status: task.status,
    running: task.running,
    finalText: finalTextOf(messages),
    cost: task.cost,
    tokensIn: task.tokensIn,
    tokensOut: task.tokensOut,
    pendingAsks: pendingAsks(registry, taskId, messages),
    patch: null,
  };
  try {
    outcome.patch = await taskPatch(registry, taskId);
  } catch (error) {
    outcome.patchNote = `no patch: ${error instanceof Error ? error.message : String(error)}`;
  }
  return outcome;
}

async function readPage(registry: TaskRegistry, taskId: string, after: number): Promise<{ events: Array<Record<string, unknown>>; next: number; more: boolean }> {
  const { entries, end } = await readLogAfter(registry.logPathOf(taskId), after);
  const events: Array<Record<string, unknown>> = [];
  for (const { seq, entry } of entries) {
    const event = durableEvent(entry, seq, taskId);
    if (event === undefined) continue;
    if (events.length === pageSize) return { events, next: Number(events.at(-1)!["seq"]), more: true };
    events.push(trimmed(event));
  }
  return { events, next: Math.max(end, after), more: false };
}

function trimmed(event: Record<string, unknown>): Record<string, unknown> {
  const text = event["text"];
  if (typeof text !== "string" || text.length <= textLimit) return event;
  return { ...event, text: `${text.slice(0, textLimit)}\n[... ${text.length - textLimit} more characters; the whole text is in the task's log (cairn show)]` };
}

/** Resolves when the task's channel says something `wakes` after entry `after` (a frame it writes), or after `waitMs`; then lets the run settle. */
function waitForChange(registry: TaskRegistry, taskId: string, after: number, waitMs: number, wakes: (frame: string) => boolean): Promise<void> {
  return new Promise((resolve) => {
    let done = false;
    const subscription: { end?: () => void } = {};
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      subscription.end?.();
      setTimeout(resolve, settleMs);
    };
    const timer = setTimeout(finish, waitMs);
    // Subscribed after the last entry read: an entry written in between is caught up from the log, and wakes.
    subscription.end = registry.channel(taskId).subscribe(Number.isFinite(after) ? after : Number.MAX_SAFE_INTEGER, {
      write: (frame) => {
        if (wakes(frame)) finish();
      },
      close: finish,
    });
    if (done) subscription.end();
  });
}

function isResultFrame(frame: string): boolean {
  return frame.includes('"type":"result"');
}

function pendingAsks(registry: TaskRegistry, taskId: string, messages: UiMessage[]): PendingAsk[] {
  const open = new Set(registry.runOf(taskId)?.openAsks() ?? []);
  return messages.flatMap((message) => (message.type === "ask" && open.has(message.id) ? [{ askId: message.id, ask: message.ask, text: message.text }] : []));
}

function finalTextOf(messages: UiMessage[]): string | null {
  const said = messages.filter((message): message is SayMessage => message.type === "say" && !message.partial && message.subagentId === undefined);
  const last = said.findLast((message) => message.say === "completion_result") ?? said.findLast((message) => message.say === "text" || message.say === "error");
  return last?.text ?? null;
}
