import { CommanderError } from "commander";
import type { Command } from "commander";
import { resolve as resolvePath } from "node:path";
import { colors as pc } from "./colors.js";
import { formatTime } from "./history-commands.js";

export interface CheckpointCommandContext {
  /** The data folder (`--data-dir`, `CAIRN_HOME` or ~/.cairn), resolved by the caller. */
  dataDir(): string;
}

const dataDirHelp = "where tasks and checkpoints are kept (default $CAIRN_HOME or ~/.cairn)";

/** `--data-dir` on the command wins over the context's folder. */
function withDataDir(context: CheckpointCommandContext, flags: { dataDir?: string }): CheckpointCommandContext {
  return flags.dataDir === undefined ? context : { dataDir: () => resolvePath(flags.dataDir!) };
}

function write(text: string): void {
  process.stdout.write(text);
}

async function openTask(context: CheckpointCommandContext, input: string) {
  const { TaskStore } = await import("../store/task-store.js");
  const { CheckpointTracker } = await import("../checkpoints/tracker.js");
  const store = new TaskStore({ dataDir: context.dataDir() });
  const taskId = await store.resolveTaskId(input);
  const loaded = await store.load(taskId);
  const tracker = new CheckpointTracker({ workspace: loaded.meta.workspace, dataDir: context.dataDir() });
  await tracker.init();
  return { taskId, tracker };
}

/** `cairn checkpoints <id>`, `cairn diff <id> [from] [to]`, `cairn restore <id> <checkpoint> [--files|--task|--both]` (default both). */
export function registerCheckpointCommands(program: Command, context: CheckpointCommandContext): void {
  program
    .command("checkpoints")
    .description("list a task's checkpoints of the workspace (newest first)")
    .argument("<id>", "task id")
    .option("--json", "print them as JSON")
    .option("--data-dir <dir>", dataDirHelp)
    .action(async (input: string, flags: { json?: boolean; dataDir?: string }) => {
      const { taskId, tracker } = await openTask(withDataDir(context, flags), input);
      const checkpoints = await tracker.list({ taskId });
      if (flags.json === true) return write(`${JSON.stringify(checkpoints, null, 2)}\n`);
      if (checkpoints.length === 0) return write(`Task ${taskId} has no checkpoints.\n`);
      for (const checkpoint of checkpoints) {
        write(`${pc.yellow(checkpoint.hash.slice(0, 12))}  ${formatTime(checkpoint.createdAt)}  ${checkpoint.reason}\n`);
      }
    });

  program
    .command("diff")
    .description("show what changed in the workspace between two checkpoints (default: from the task's first checkpoint to now)")
    .argument("<id>", "task id")
    .argument("[from]", "checkpoint hash (default: the task's first checkpoint)")
    .argument("[to]", "checkpoint hash (default: the workspace as it is now)")
    .option("--data-dir <dir>", dataDirHelp)
    .action(async (input: string, from: string | undefined, to: string | undefined, flags: { dataDir?: string }) => {
      const { taskId, tracker } = await openTask(withDataDir(context, flags), input);
      const { findTaskCheckpoint } = await import("../checkpoints/restore.js");
      let start = from === undefined ? undefined : (await findTaskCheckpoint(tracker, taskId, from)).hash;
      if (start === undefined) {
        const checkpoints = await tracker.list({ taskId });
        start = checkpoints[checkpoints.length - 1]?.hash;
        if (start === undefined) throw new Error(`task ${taskId} has no checkpoints to compare with`);
      }
      const end = to === undefined ? undefined : (await findTaskCheckpoint(tracker, taskId, to)).hash;
      const diff = await tracker.diff(start, end);
      if (diff.files.length === 0) return write("No changes.\n");
      const letters = { added: "A", modified: "M", deleted: "D" } as const;
      for (const file of diff.files) write(`${letters[file.status]} ${file.path}\n`);
      write(`\n${diff.patch}`);
    });

  program
    .command("restore")
    .description("restore a task to a checkpoint: the workspace files, the conversation, or both")
    .argument("<id>", "task id")
    .argument("<checkpoint>", "checkpoint hash (or a prefix of it)")
    .option("--files", "put only the workspace files back as they were at the checkpoint")
    .option("--task", "only cut the conversation back to the checkpoint")
    .option("--both", "both of the above (the default, as /restore in the terminal UI)")
    .option("--data-dir <dir>", dataDirHelp)
    .action(async (input: string, checkpoint: string, flags: { files?: boolean; task?: boolean; both?: boolean; dataDir?: string }) => {
      const chosen = (["files", "task", "both"] as const).filter((mode) => flags[mode] === true);
      if (chosen.length > 1) {
        // A usage error (exit 2), like any other conflicting options.
        const message = "choose what to restore with at most one of --files (workspace files), --task (the conversation) or --both (the default)";
        process.stderr.write(`cairn: ${message}\n`);
        throw new CommanderError(2, "cairn.restoreMode", message);
      }
      const mode = chosen[0] ?? "both";
      const scoped = withDataDir(context, flags);
      const { TaskStore } = await import("../store/task-store.js");
      const { restoreCheckpoint } = await import("../checkpoints/restore.js");
      const taskId = await new TaskStore({ dataDir: scoped.dataDir() }).resolveTaskId(input);
      const outcome = await restoreCheckpoint({ dataDir: scoped.dataDir(), taskId, checkpoint, mode });
      const short = outcome.checkpoint.hash.slice(0, 12);
      if (outcome.files !== undefined) {
        const { restored, removed, skippedLarge, undoHash } = outcome.files;
        write(
          `Files restored to checkpoint ${short}: ${restored.length} written back, ${removed.length} removed` +
            (skippedLarge.length > 0 ? `, ${skippedLarge.length} left alone (too large: ${skippedLarge.join(", ")})` : "") +
            `.\nTo undo: cairn restore ${taskId} ${undoHash.slice(0, 12)} --files\n`,
        );
      }
      if (outcome.conversation !== undefined) {
        write(`Conversation cut back to checkpoint ${short} (${outcome.conversation.uiMessageCount} messages kept). ` + `Continue it with: cairn resume ${taskId}\n`);
      }
    });
}
