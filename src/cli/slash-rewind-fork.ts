/** `/rewind` and `/fork` in the terminal UI (docs/sessions.md): the CLI's commands, run between steps on the current task. */
import type { RewindMode } from "../checkpoints/rewind.js";
import type { InteractiveController } from "./interactive.js";
import { describeFork, describeRewind } from "./rewind-fork-commands.js";

/** What `/rewind` says, and the text to put back in the input (your message N, to edit and send again). */
export interface RewindReply {
  text: string;
  input?: string;
}

/** The model reads what changed under it: the files, or the conversation without them. */
function rewindNote(mode: RewindMode, number: number, files: readonly string[]): string | undefined {
  if (mode === "conversation") return `The user took the conversation back to before their message ${number}; the files were left as they are now, so they may differ from what the conversation says.`;
  if (mode === "files") return `The user put the files back as they were before their message ${number}${files.length === 0 ? "" : ` (${files.join(", ")})`}.`;
  return undefined;
}

export async function rewindFromTui(controller: InteractiveController, to: number | undefined, mode: RewindMode): Promise<RewindReply> {
  const taskId = controller.taskId;
  if (taskId === undefined) return { text: "There is no task to rewind yet." };
  const dataDir = controller.settings.dataDir;
  if (to === undefined) {
    const [{ TaskStore }, { describeUserMessages, userMessagesOf }] = await Promise.all([import("../store/task-store.js"), import("../store/conversation-points.js")]);
    const points = userMessagesOf((await new TaskStore({ dataDir }).load(taskId)).uiMessages);
    return { text: ["Your messages in this task:", ...describeUserMessages(points), "Rewind with /rewind N [conversation|files|both] (default both)."].join("\n") };
  }
  const { rewindTask } = await import("../checkpoints/rewind.js");
  const outcome = await controller.between(async () => {
    try {
      return await rewindTask({ dataDir, taskId, to, mode });
    } finally {
      // Failed or not, the task stays the one the next message continues.
      controller.continueTask(taskId, false);
    }
  });
  const files = outcome.files === undefined ? [] : [...outcome.files.restored, ...outcome.files.removed];
  const note = rewindNote(mode, to, files);
  if (note !== undefined) controller.continueTask(taskId, false, note);
  const lines = [`──── rewound to before your message ${to} ────`, ...describeRewind(taskId, outcome, (hash) => `/restore ${hash} files`)];
  if (outcome.conversation === undefined || to === 1) return { text: [...lines, "Type a message to continue the task."].join("\n") };
  return { text: [...lines, "Your message is back in the input: edit it and press Enter."].join("\n"), input: outcome.message.text };
}

export async function forkFromTui(controller: InteractiveController, at: number | undefined): Promise<string> {
  const source = controller.taskId;
  if (source === undefined) return "There is no task to fork yet.";
  const { forkTask } = await import("../checkpoints/fork.js");
  const outcome = await controller.between(async () => {
    try {
      return await forkTask({ dataDir: controller.settings.dataDir, taskId: source, ...(at === undefined ? {} : { at }) });
    } catch (error) {
      controller.continueTask(source, false);
      throw error;
    }
  });
  controller.continueTask(outcome.taskId, false);
  return [...describeFork(outcome).slice(0, -1), `Your next message continues the fork; /resume ${source} goes back to the source.`].join("\n");
}
