/** The CLI's side of the TUI's slash commands: what /undo, /restore, /history, /resume, /cost ... do. */
import { isKnownModel, modelsForProvider } from "../llm/models.js";
import type { TaskSummary } from "../store/types.js";
import type { SlashSession } from "../ui/tui/slash-commands.js";
import type { InteractiveController } from "./interactive.js";
import { workspaceChangeNote } from "../checkpoints/undo.js";
import { forkFromTui, rewindFromTui } from "./slash-rewind-fork.js";
import { subagentsPart, taskSpending } from "../session/task-spending.js";
import { killProcess, processReport } from "./interactive-processes.js";

function money(cost: number): string {
  return `$${cost.toFixed(cost < 1 ? 4 : 2)}`;
}

/** How long ago, the way people say it. */
export function describeAge(milliseconds: number): string {
  const minutes = Math.floor(milliseconds / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

/**
 * Finds which of `taskIds` (newest first) owns the checkpoint `reference`, so
 * `/restore` reaches the checkpoints of earlier tasks shown on screen.
 */
async function checkpointOwner(options: { dataDir: string; workspace: string; reference: string; taskIds: readonly string[] }): Promise<string | undefined> {
  const { CheckpointTracker } = await import("../checkpoints/tracker.js");
  const tracker = new CheckpointTracker({ workspace: options.workspace, dataDir: options.dataDir });
  await tracker.init();
  const checkpoints = await tracker.list();
  const reference = options.reference.toLowerCase();
  for (const taskId of [...options.taskIds].reverse()) {
    if (checkpoints.some((checkpoint) => checkpoint.taskId === taskId && checkpoint.hash.startsWith(reference))) return taskId;
  }
  return undefined;
}

export function createSlashSession(controller: InteractiveController): SlashSession {
  const settings = () => controller.settings;

  /** This folder's tasks, the most recently active first. */
  const folderTasks = async (): Promise<TaskSummary[]> => {
    const { TaskStore } = await import("../store/task-store.js");
    const rows = (await new TaskStore({ dataDir: settings().dataDir }).list()).filter((row) => row.workspace === settings().cwd);
    return rows.sort((left, right) => right.updatedAt - left.updatedAt || right.createdAt - left.createdAt);
  };

  const restore = async (checkpoint: string, mode: "files" | "task" | "both"): Promise<string> => {
    const current = controller.taskId;
    const owner = await checkpointOwner({
      dataDir: settings().dataDir,
      workspace: settings().cwd,
      reference: checkpoint,
      taskIds: current === undefined ? controller.knownTaskIds : [...controller.knownTaskIds.filter((id) => id !== current), current],
    }).catch(() => undefined);
    const taskId = owner ?? current;
    if (taskId === undefined) return "There is no task to restore yet.";
    const outcome = await controller.between(async () => {
      const { restoreCheckpoint } = await import("../checkpoints/restore.js");
      try {
        return await restoreCheckpoint({ dataDir: settings().dataDir, taskId, checkpoint, mode });
      } finally {
        // Failed or not, the task stays the one the next message continues.
        if (owner !== undefined || current !== undefined) controller.continueTask(taskId, false);
      }
    });
    const change = workspaceChangeNote(outcome, "The user restored files from a checkpoint");
    if (change !== undefined) controller.continueTask(taskId, false, change);
    const parts: string[] = [];
    if (outcome.files) {
      parts.push(`files restored (${outcome.files.restored.length} written back, ${outcome.files.removed.length} removed; undo with /restore ${outcome.files.undoHash.slice(0, 12)} files)`);
    }
    if (outcome.conversation) parts.push(`conversation cut back (${outcome.conversation.uiMessageCount} messages kept)`);
    return `Restored checkpoint ${outcome.checkpoint.hash.slice(0, 12)}${taskId !== current ? ` of task ${taskId}` : ""}: ${parts.join("; ")}. Type a message to continue the task.`;
  };

  return {
    currentTask: () => controller.currentSession?.task,
    currentTaskId: () => controller.taskId,
    newTask: () => controller.newTask(),
    setModel: (spec) => controller.switchModel(spec),
    describeModel: () => `${settings().model}${settings().profile ? ` (profile ${settings().profile})` : ""} via ${settings().provider}`,
    modelChoices: () => modelsForProvider(settings().provider),
    modelWarning: () => {
      const { model, provider } = settings();
      if (provider === "mock" || isKnownModel(model)) return undefined;
      return `${model} is not in cairn's model catalogue: it is used as given (custom and local models work), with a default context window and no cost figures. Check the name if you meant a known model (/model lists them).`;
    },
    setMode: (mode) => controller.setMode(mode),
    costReport: () => {
      const session = controller.currentSession;
      const task = session === undefined ? { tokensIn: 0, tokensOut: 0, cost: 0, subagents: { count: 0, tokensIn: 0, tokensOut: 0, cost: 0 } } : taskSpending(session);
      const totals = controller.sessionTotals;
      const subagents = subagentsPart(task.subagents);
      return [
        `This task: ${task.tokensIn} tokens in, ${task.tokensOut} out, ${money(task.cost)}${subagents === undefined ? "" : ` (${subagents})`}`,
        `This session: ${totals.tokensIn + task.tokensIn} tokens in, ${totals.tokensOut + task.tokensOut} out, ${money(totals.cost + task.cost)}`,
      ].join("\n");
    },
    undo: async () => {
      const taskId = controller.taskId;
      if (taskId === undefined) return "There is no task to undo yet.";
      const [{ CheckpointTracker }, { restoreCheckpoint }, { describeUndo, undoLastStep }] = await Promise.all([
        import("../checkpoints/tracker.js"),
        import("../checkpoints/restore.js"),
        import("../checkpoints/undo.js"),
      ]);
      const undone = await controller.between(async () => {
        try {
          const tracker = new CheckpointTracker({ workspace: settings().cwd, dataDir: settings().dataDir });
          await tracker.init();
          return await undoLastStep({
            tracker,
            taskId,
            undone: controller.undoPoints,
            restoreFiles: (hash) => restoreCheckpoint({ dataDir: settings().dataDir, taskId, checkpoint: hash, mode: "files" }),
          });
        } finally {
          // The task stays the one the next message continues.
          controller.continueTask(taskId, false);
        }
      });
      if (undone.kind === "nothing") return undone.text;
      controller.undoPoints.push(undone.point);
      const change = workspaceChangeNote(undone.outcome, "The user undid the last step");
      if (change !== undefined) controller.continueTask(taskId, false, change);
      return `${describeUndo(undone.outcome)} Type a message to continue the task.`;
    },
    restore,
    rewind: (to, mode) => rewindFromTui(controller, to, mode),
    fork: (at) => forkFromTui(controller, at),
    history: async () => {
      const rows = await folderTasks();
      if (rows.length === 0) return "No tasks in this folder yet.";
      const now = Date.now();
      return [
        "Tasks in this folder (newest first; /resume <id> continues one):",
        ...rows.slice(0, 15).map((row) => `  ${row.taskId}  ${row.status.padEnd(9)} ${describeAge(now - row.updatedAt).padEnd(12)} ${money(row.cost).padEnd(8)} ${row.title}`),
      ].join("\n");
    },
    resume: async (reference) => {
      const { TaskStore } = await import("../store/task-store.js");
      const store = new TaskStore({ dataDir: settings().dataDir });
      let taskId: string | undefined;
      if (reference === undefined) {
        taskId = (await folderTasks()).find((row) => row.taskId !== controller.taskId)?.taskId;
        if (taskId === undefined) return "No other task in this folder to resume.";
      } else {
        taskId = await store.resolveTaskId(reference);
      }
      const loaded = await store.load(taskId);
      await controller.between(async () => {});
      // Its transcript now, so the user sees what they are continuing; not again when it continues.
      const { prepareResume } = await import("../store/resume.js");
      for (const message of prepareResume(loaded, { now: Date.now() }).uiMessages) controller.host.onMessage({ ...message, partial: false });
      controller.continueTask(taskId, false);
      return `Task ${taskId} is open: type a message to continue it (say what to do next).`;
    },
    contextCommand: (command) => controller.contextCommand(command),
    mcpReport: async () => {
      const { loadMcpConfig } = await import("../mcp/config.js");
      const { enabledPlugins, pluginPlaces } = await import("../plugins/plugin-contributions.js");
      const plugins = await enabledPlugins(pluginPlaces(settings()));
      const { servers, warnings } = await loadMcpConfig({
        userConfigDir: settings().userConfigDir,
        workspace: settings().cwd,
        projectTrusted: settings().trust.trusted,
        claudeStateFile: settings().claudeStateFile,
        pluginServers: plugins.mcpServers,
      });
      if (servers.length === 0) return "No MCP servers configured. Add one with: cairn mcp add <name> <command-or-url> [args...]";
      const { storedSignInState } = await import("../mcp/oauth/credential-store.js");
      const lines = await Promise.all(
        servers.map(async (server) => {
          const signIn = await storedSignInState(settings().dataDir, server);
          return `  ${server.name}  (${server.source})${signIn === undefined ? "" : `  sign-in: ${signIn}${signIn === "signed in" ? "" : ` (cairn mcp login ${server.name})`}`}`;
        }),
      );
      return ["MCP servers (cairn mcp list connects and shows their tools):", ...lines, ...warnings.map((warning) => `  warning: ${warning}`)].join("\n");
    },
    plugins: async (args) => {
      const { pluginListing, switchPlugin } = await import("../plugins/plugin-actions.js");
      const switched = /^(enable|disable)\s+(\S+)$/.exec(args.trim());
      if (switched !== null) return switchPlugin(settings().dataDir, switched[2] ?? "", switched[1] === "enable").catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
      if (args.trim() !== "") return "Usage: /plugins [enable|disable <plugin>] (install one with: cairn plugin install NAME@MARKETPLACE)";
      return (await pluginListing(settings(), false)).trimEnd();
    },
    processReport: () => processReport(controller.backgroundProcesses),
    killProcess: (id) => killProcess(controller.backgroundProcesses, id),
    exit: () => controller.exit(),
  };
}
