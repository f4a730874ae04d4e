/**
 * `cairn rewind TASK [--to N]` and `cairn fork TASK [--at N] [--worktree [PATH]]`
 * (docs/sessions.md): a task taken back to before one of the user's messages,
 * or branched into a new task from there.
 */
import { CommanderError, InvalidArgumentError } from "commander";
import type { Command } from "commander";
import { resolve as resolvePath } from "node:path";
import type { RewindOutcome } from "../checkpoints/rewind.js";
import type { ForkOutcome } from "../checkpoints/fork.js";
import type { CheckpointCommandContext } from "./checkpoint-commands.js";

const dataDirHelp = "where tasks and checkpoints are kept (default $CAIRN_HOME or ~/.cairn)";

function write(text: string): void {
  process.stdout.write(text);
}

function messageNumber(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError("a message number: 1 for the task, 2 for your next message, ...");
  return number;
}

async function resolveTask(dataDir: string, input: string): Promise<string> {
  const { TaskStore } = await import("../store/task-store.js");
  return new TaskStore({ dataDir }).resolveTaskId(input);
}

/** The user's messages of a task, numbered, with how to go back to one. */
async function listMessages(dataDir: string, taskId: string, command: string): Promise<void> {
  const { TaskStore } = await import("../store/task-store.js");
  const { describeUserMessages, userMessagesOf } = await import("../store/conversation-points.js");
  const points = userMessagesOf((await new TaskStore({ dataDir }).load(taskId)).uiMessages);
  write(`Your messages in task ${taskId}:\n${describeUserMessages(points).join("\n")}\n`);
  write(`${command}\n`);
}

/** What a rewind did, as the user reads it. */
export function describeRewind(taskId: string, outcome: RewindOutcome, undo = (hash: string) => `cairn restore ${taskId} ${hash} --files`): string[] {
  const lines: string[] = [];
  if (outcome.files !== undefined) {
    const { restored, removed, undoHash, checkpoint } = outcome.files;
    lines.push(`Files restored to checkpoint ${checkpoint.slice(0, 12)}: ${restored.length} written back, ${removed.length} removed. To undo: ${undo(undoHash.slice(0, 12))}`);
  }
  if (outcome.conversation !== undefined) {
    lines.push(
      outcome.message.number === 1
        ? "Conversation taken back to the task itself: it starts over when resumed."
        : `Conversation taken back to before your message ${outcome.message.number} (${outcome.conversation.uiMessageCount} messages kept). It was:\n  ${outcome.message.text.split("\n").join("\n  ")}`,
    );
  }
  return lines;
}

export function registerRewindForkCommands(program: Command, context: CheckpointCommandContext): void {
  program
    .command("rewind")
    .description("take a task back to just before one of your messages: the conversation, the files, or both (without --to: list your messages)")
    .argument("<id>", "task id")
    .option("--to <n>", "your message to go back before (1: the task itself, which then starts over)", messageNumber)
    .option("--conversation", "only the conversation")
    .option("--files", "only the workspace files (from the checkpoint of that moment)")
    .option("--both", "both (the default)")
    .option("--json", "print what was done as JSON")
    .option("--data-dir <dir>", dataDirHelp)
    .action(async (input: string, flags: { to?: number; conversation?: boolean; files?: boolean; both?: boolean; json?: boolean; dataDir?: string }) => {
      const dataDir = flags.dataDir === undefined ? context.dataDir() : resolvePath(flags.dataDir);
      const taskId = await resolveTask(dataDir, input);
      if (flags.to === undefined) return listMessages(dataDir, taskId, `Rewind with: cairn rewind ${taskId} --to N [--conversation|--files]`);
      const chosen = (["conversation", "files", "both"] as const).filter((mode) => flags[mode] === true);
      if (chosen.length > 1) {
        const message = "choose at most one of --conversation, --files or --both (the default)";
        process.stderr.write(`cairn: ${message}\n`);
        throw new CommanderError(2, "cairn.rewindMode", message);
      }
      const { rewindTask } = await import("../checkpoints/rewind.js");
      const outcome = await rewindTask({ dataDir, taskId, to: flags.to, mode: chosen[0] ?? "both" });
      if (flags.json === true) return write(`${JSON.stringify({ taskId, ...outcome }, null, 2)}\n`);
      write(`${describeRewind(taskId, outcome).join("\n")}\n`);
      if (outcome.conversation !== undefined) write(`Continue it with: cairn resume ${taskId} "your message"\n`);
    });

  program
    .command("fork")
    .description("start a new task from a task's conversation (whole, or up to before one of your messages) and its workspace as it was there")
    .argument("<id>", "task id")
    .option("--at <n>", "fork before your message N (1: the task itself); default: the whole conversation", messageNumber)
    .option("--worktree [path]", "work in a new git worktree holding the files of that point (default path: in the data folder)")
    .option("--json", "print the new task as JSON")
    .option("--data-dir <dir>", dataDirHelp)
    .action(async (input: string, flags: { at?: number; worktree?: boolean | string; json?: boolean; dataDir?: string }) => {
      const dataDir = flags.dataDir === undefined ? context.dataDir() : resolvePath(flags.dataDir);
      const taskId = await resolveTask(dataDir, input);
      const { forkTask } = await import("../checkpoints/fork.js");
      const worktree = typeof flags.worktree === "string" ? resolvePath(flags.worktree) : flags.worktree;
      const outcome = await forkTask({ dataDir, taskId, ...(flags.at === undefined ? {} : { at: flags.at }), ...(worktree === undefined ? {} : { worktree }) });
      if (flags.json === true) return write(`${JSON.stringify(outcome, null, 2)}\n`);
      write(`${describeFork(outcome).join("\n")}\n`);
    });
}

/** What a fork made, as the user reads it. */
export function describeFork(outcome: ForkOutcome): string[] {
  const where = outcome.at === undefined ? "its whole conversation" : outcome.at.number === 1 ? "the task itself" : `before your message ${outcome.at.number}`;
  const lines = [`Forked task ${outcome.source} into ${outcome.taskId} (${where}).`];
  if (outcome.worktree !== undefined) lines.push(`It works in the git worktree ${outcome.worktree.path} (branch ${outcome.worktree.branch}).`);
  else if (outcome.checkpoint !== undefined) lines.push(`The workspace files were restored to checkpoint ${outcome.checkpoint.slice(0, 12)} (the source task can restore its own).`);
  // A task continues in the folder cairn runs in: a worktree fork's is named.
  const cwd = outcome.worktree === undefined ? "" : ` --cwd ${JSON.stringify(outcome.workspace)}`;
  lines.push(`Continue it with: cairn resume ${outcome.taskId}${cwd} "your message"`);
  return lines;
}
