import { createInterface } from "node:readline/promises";
import type { ResolvedSettings } from "../config/index.js";
import type { Scenario } from "../llm/scripted/scenario.js";
import type { TaskResult } from "../task/task.js";
import type { AskMessage } from "../task/messages.js";
import type { Mode } from "../task/tool-executor.js";
import type { TuiController, TuiStatus } from "../ui/tui/controller.js";
import { TuiHost } from "../ui/tui/tui-host.js";
import { renderTui } from "../ui/tui/render.js";
import { exitStatusFor } from "./run-command.js";
import { createSession } from "./session.js";
import type { Session } from "./session.js";

/**
 * The TUI's controller: one Task at a time. Enter starts a task; after an
 * interruption, Enter continues the same task (resume) with the message;
 * after completion, Enter starts a new task.
 */
export class InteractiveController implements TuiController {
  private session: Session | undefined;
  /** A task to continue with the next message (`cairn resume` on a terminal, or after `/restore`). */
  private resumeTaskId: string | undefined;
  private notices = 0;
  private lastResult: TaskResult | undefined;
  private running: Promise<void> | undefined;
  private mode: Mode;
  private exitRequested = false;
  private replayOnResume: boolean;
  private readonly onExit: () => void;

  constructor(
    private readonly options: {
      settings: ResolvedSettings;
      host: TuiHost;
      scenario?: Scenario;
      exitWhenDone: boolean;
      onExit: () => void;
      resumeTaskId?: string;
    },
  ) {
    this.mode = options.settings.plan ? "plan" : "act";
    this.onExit = options.onExit;
    this.resumeTaskId = options.resumeTaskId;
    this.replayOnResume = options.resumeTaskId !== undefined;
  }

  get result(): TaskResult | undefined {
    return this.lastResult;
  }

  get taskId(): string | undefined {
    return this.session?.taskId ?? this.resumeTaskId;
  }

  submit(text: string): void {
    if (this.running) return;
    const restore = /^\/restore\s+(\S+)(?:\s+(files|task|both))?\s*$/.exec(text.trim());
    if (restore?.[1] !== undefined) {
      this.restore(restore[1], (restore[2] ?? "both") as "files" | "task" | "both");
      return;
    }
    this.start(text);
  }

  /** Continues `resumeTaskId` at once (with no message of the user's). */
  resumeNow(): void {
    if (this.resumeTaskId !== undefined && !this.running) this.start(undefined);
  }

  private start(text: string | undefined): void {
    const previous = this.session;
    const resumeId = this.resumeTaskId ?? (previous !== undefined && this.lastResult?.status !== "completed" ? previous.taskId : undefined);
    this.resumeTaskId = undefined;
    // A task opened from the command line has nothing on screen yet: show its transcript first.
    const replay = this.replayOnResume;
    this.replayOnResume = false;
    this.running = (async () => {
      if (previous) await previous.close();
      this.session = undefined;
      const start =
        resumeId !== undefined
          ? { kind: "resume" as const, taskId: resumeId, ...(text ? { message: text } : {}) }
          : { kind: "new" as const, task: text ?? "" };
      const session = await createSession({
        settings: { ...this.options.settings, plan: this.mode === "plan" },
        host: this.options.host,
        ...(this.options.scenario ? { scenario: this.options.scenario } : {}),
        start,
      });
      this.session = session;
      session.task.mode = this.mode;
      if (start.kind === "resume") {
        if (replay) for (const message of session.task.messages.messages) this.options.host.onMessage(message);
        // The model receives the message with the resumed content; the user sees it too.
        if (text) session.task.say("user_feedback", text);
      }
      this.lastResult = await session.run();
    })()
      .catch((error: unknown) => {
        this.lastResult = { status: "failed", error: error instanceof Error ? error.message : String(error) };
        this.notify("error", this.lastResult.error ?? "failed");
      })
      .finally(() => {
        this.running = undefined;
        if (this.options.exitWhenDone || this.exitRequested) this.onExit();
      });
  }

  /**
   * `/restore <checkpoint> [files|task|both]` between steps: puts the workspace
   * files and/or the conversation back; the next message continues the task.
   */
  private restore(checkpoint: string, mode: "files" | "task" | "both"): void {
    const taskId = this.session?.taskId ?? this.resumeTaskId;
    if (taskId === undefined) {
      this.notify("error", "There is no task to restore yet.");
      return;
    }
    this.running = (async () => {
      await this.session?.close();
      this.session = undefined;
      const { restoreCheckpoint } = await import("../checkpoints/restore.js");
      const outcome = await restoreCheckpoint({ dataDir: this.options.settings.dataDir, taskId, checkpoint, mode });
      this.resumeTaskId = taskId;
      const short = outcome.checkpoint.hash.slice(0, 12);
      const parts: string[] = [];
      if (outcome.files) parts.push(`files restored (${outcome.files.restored.length} written back, ${outcome.files.removed.length} removed; undo with /restore ${outcome.files.undoHash.slice(0, 12)} files)`);
      if (outcome.conversation) parts.push(`conversation cut back (${outcome.conversation.uiMessageCount} messages kept)`);
      this.notify("info", `Restored checkpoint ${short}: ${parts.join("; ")}. Type a message to continue the task.`);
    })()
      .catch((error: unknown) => this.notify("error", `Restore failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        this.running = undefined;
      });
  }

  /** A message of the UI's own, between tasks (no Task to say it). */
  private notify(kind: "info" | "error", text: string): void {
    this.notices += 1;
    this.options.host.onMessage({ type: "say", say: kind, id: `tui-notice-${this.notices}`, ts: Date.now(), text, partial: false });
  }

  abort(): void {
    // Nothing runs while the result waits for acceptance: there is nothing to stop.
    if (this.pendingAsk()?.ask === "completion_result") return;
    if (this.session && this.running) void this.session.task.abortTask();
  }

  private pendingAsk(): AskMessage | undefined {
    return this.options.host.getSnapshot().pendingAsk;
  }

  exit(): void {
    this.exitRequested = true;
    const ask = this.pendingAsk();
    if (ask?.ask === "completion_result") {
      // Quitting at the completion prompt accepts the result: the task is complete, not interrupted.
      this.options.host.answer(ask.id, { response: "yes" });
      return;
    }
    if (this.running) {
      this.abort();
      return;
    }
    this.onExit();
  }

  toggleMode(): Mode {
    this.mode = this.mode === "plan" ? "act" : "plan";
    if (this.session) this.session.task.mode = this.mode;
    return this.mode;
  }

  status(): TuiStatus {
    const task = this.session?.task;
    return {
      model: this.options.settings.model,
      mode: this.mode,
      tokensUsed: task?.usage.lastContextTokens() ?? 0,
      contextWindow: this.session?.provider.model.contextWindow ?? 0,
      cost: task?.usage.totals().cost ?? 0,
      busy: this.running !== undefined,
    };
  }

  async close(): Promise<void> {
    await this.running;
    await this.session?.close();
  }
}

/** Asks once, on a terminal, whether to trust a folder whose config wants more power. */
async function confirmTrust(settings: ResolvedSettings): Promise<boolean> {
  if (settings.trust.trusted || settings.trust.gated.length === 0) return false;
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await prompt.question(
      `This folder's .cairn config asks for: ${settings.trust.gated.join(", ")}.\nTrust ${settings.trust.folder}? Only do so for repositories you trust. [y/N] `,
    );
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    prompt.close();
  }
}

export async function runInteractive(options: {
  settings: ResolvedSettings;
  initialTask?: string;
  scenario?: Scenario;
  exitWhenDone?: boolean;
  /** Re-resolves settings after the folder was trusted. */
  reresolve?: () => Promise<ResolvedSettings>;
  /** `cairn resume ID` on a terminal: continue that task (with `initialTask` as the message, if any). */
  resumeTaskId?: string;
}): Promise<number> {
  let settings = options.settings;
  if (options.reresolve && (await confirmTrust(settings))) {
    const { trustFolder } = await import("../config/index.js");
    await trustFolder(settings.trust.folder, settings.userConfigDir);
    settings = await options.reresolve();
  }
  const host = new TuiHost();
  const ui: { instance?: { unmount(): void } } = {};
  const controller = new InteractiveController({
    settings,
    host,
    exitWhenDone: options.exitWhenDone ?? false,
    ...(options.scenario ? { scenario: options.scenario } : {}),
    ...(options.resumeTaskId ? { resumeTaskId: options.resumeTaskId } : {}),
    onExit: () => ui.instance?.unmount(),
  });
  const instance = renderTui({ controller, host, ...(options.initialTask ? { initialTask: options.initialTask } : {}) });
  ui.instance = instance;
  if (options.resumeTaskId && !options.initialTask) controller.resumeNow();
  await instance.waitUntilExit();
  await controller.close();
  const result = controller.result;
  if (result?.status === "aborted" && controller.taskId) {
    process.stdout.write(`task interrupted; resume it with: cairn resume ${controller.taskId}\n`);
  }
  return result ? exitStatusFor(result) : 0;
}
