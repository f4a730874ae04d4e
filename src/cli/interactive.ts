import type { ResolvedSettings } from "../config/index.js";
import { nextMode } from "./mode-cycle.js";
import type { Scenario } from "../llm/scripted/scenario.js";
import type { TaskResult } from "../task/task.js";
import type { AskMessage } from "../task/contracts/messages.js";
import type { Mode } from "../task/contracts/tool-executor.js";
import type { TuiController, TuiStatus } from "../ui/tui/controller.js";
import type { SlashSession } from "../ui/tui/slash-commands.js";
import { createSlashSession } from "./slash-session.js";
import { completeMentionPath, expandMentionsWithImages } from "./mentions.js";
import { queuedMessages } from "./queued-messages.js";
import { completeResourceMention } from "./mcp-completions.js";
import { KeptMcpServers } from "../session/kept-mcp-servers.js";
import type { ImageContent } from "../llm/types.js";
import type { TuiHost } from "../ui/tui/tui-host.js";
import { createSession } from "../session/session.js";
import type { Session } from "../session/session.js";
import type { UndoPoint } from "../checkpoints/undo.js";
import { StatusLineCommand } from "./status-line.js";
import { taskSpending } from "../session/task-spending.js";
import { endOfTaskSummary, notSent } from "./end-of-task-summary.js";
import { ProcessTable } from "../tools/process/process-table.js";
import { askToKeepProcesses } from "./interactive-processes.js";

/**
 * The TUI's controller: one Task at a time. Enter starts a task; after an
 * interruption, Enter continues the same task (resume) with the message;
 * after completion, Enter starts a new task.
 */
export class InteractiveController implements TuiController {
  private session: Session | undefined;
  private sessionClosed = false;
  /** A task to continue with the next message (`cairn resume` on a terminal, or after `/restore`). */
  private resumeTaskId: string | undefined;
  /** Every task this UI has shown, newest last: `/restore` reaches their checkpoints. */
  readonly knownTaskIds: string[] = [];
  /** Calls the user back (src/ui/tui/notifications.ts); set by the terminal UI. */
  attention: TuiController["attention"];
  /** What each `/undo` took back, so the next one goes further back (src/checkpoints/undo.ts). */
  readonly undoPoints: UndoPoint[] = [];
  private notices = 0;
  private lastResult: TaskResult | undefined;
  private running: Promise<void> | undefined;
  mode: Mode;
  /** Auto mode is on for the session, and on now (Tab cycles it: mode-cycle.ts). */
  private readonly autoAvailable: boolean;
  private autoMode: boolean;
  private exitRequested = false;
  private replayOnResume: boolean;
  private forgetTask = false;
  /** What /undo or /restore changed in the workspace since the task last ran: the model is told when it continues. */
  private workspaceChange: string | undefined;
  private readonly onExit: () => void;
  /** Aborted when the user quits: an ask of the UI's own (keep the processes?) stops waiting. */
  private readonly quitSignal = new AbortController();
  /** Images for the next message (`--image` at start-up). */
  readonly pendingImages: ImageContent[] = [];
  /** Messages typed while a step runs, delivered at the next tool boundary with their mentions and MCP references expanded. */
  private readonly queue = queuedMessages({ workspace: () => this.settings.cwd, session: () => this.session });
  /** MCP servers kept from the first task that starts them, for the next tasks and the completion menu. */
  readonly mcp = new KeptMcpServers();
  /** Tokens and cost of the tasks this UI ran before the current one. */
  readonly sessionTotals = { tokensIn: 0, tokensOut: 0, cost: 0 };
  settings: ResolvedSettings;
  /** Background processes (#31): one table for the UI, so a process the user keeps outlives its task. */
  readonly backgroundProcesses = new ProcessTable();
  /** The user's `statusLine` command (Claude Code's setting), drawn under cairn's status line. */
  private readonly statusLineCommand: StatusLineCommand | undefined;

  constructor(
    private readonly options: {
      settings: ResolvedSettings;
      host: TuiHost;
      scenario?: Scenario;
      exitWhenDone: boolean;
      onExit: () => void;
      resumeTaskId?: string;
      /** Builds the session (tests hold it to quit while it is being created). */
      createSession?: typeof createSession;
      /** Settings for `/model`: a profile name or a model id. */
      switchModel?: (spec: string) => Promise<ResolvedSettings>;
    },
  ) {
    this.settings = options.settings;
    this.mode = options.settings.plan ? "plan" : "act";
    this.autoAvailable = options.settings.autoMode?.enabled === true && !options.settings.yes;
    this.autoMode = this.autoAvailable && this.mode === "act";
    const statusLine = options.settings.statusLine;
    this.statusLineCommand = statusLine === undefined ? undefined : new StatusLineCommand({ setting: statusLine, fromProject: options.settings.sources["statusLine"] === "project", settings: () => this.settings });
    this.onExit = options.onExit;
    this.resumeTaskId = options.resumeTaskId;
    this.replayOnResume = options.resumeTaskId !== undefined;
    if (options.resumeTaskId !== undefined) this.knownTaskIds.push(options.resumeTaskId);
  }

  get result(): TaskResult | undefined {
    return this.lastResult;
  }

  get taskId(): string | undefined {
    return this.resumeTaskId ?? (this.forgetTask ? undefined : this.session?.taskId);
  }

  get host(): TuiHost {
    return this.options.host;
  }

  get currentSession(): Session | undefined {
    return this.session;
  }

  get isRunning(): boolean {
    return this.running !== undefined;
  }

  submit(text: string): void {
    // Never dropped: while a step runs (or ends after Esc), it waits for the next boundary.
    if (this.running) {
      this.queue.push(text);
      return;
    }
    this.start(text);
  }

  /** Continues `resumeTaskId` at once (with no message of the user's). */
  resumeNow(): void {
    if (this.resumeTaskId !== undefined && !this.running) this.start(undefined);
  }

  /** `/clear`: the next message starts a new task. */
  newTask(): void {
    this.resumeTaskId = undefined;
    this.forgetTask = true;
  }

  /**
   * Makes `taskId` the task the next message continues; `replay` shows its transcript first;
   * `workspaceChange` says what the user changed in its files meanwhile (/undo, /restore).
   */
  continueTask(taskId: string, replay: boolean, workspaceChange?: string): void {
    if (workspaceChange !== undefined) this.workspaceChange = this.workspaceChange === undefined || this.resumeTaskId !== taskId ? workspaceChange : `${this.workspaceChange} Then: ${workspaceChange}`;
    this.resumeTaskId = taskId;
    this.replayOnResume = replay;
    this.forgetTask = false;
    if (!this.knownTaskIds.includes(taskId)) this.knownTaskIds.push(taskId);
  }

  async switchModel(spec: string): Promise<string> {
    if (this.options.switchModel === undefined) {
      this.settings = { ...this.settings, model: spec };
    } else {
      const next = await this.options.switchModel(spec);
      this.settings = { ...next, cwd: this.settings.cwd };
    }
    return `${this.settings.model}${this.settings.profile ? ` (profile ${this.settings.profile})` : ""} via ${this.settings.provider}`;
  }

  /** Runs `work` between steps (nothing may run meanwhile); the current task stays the current task. */
  async between<T>(work: () => Promise<T>): Promise<T> {
    if (this.running) throw new Error("cairn is working; wait for the step to end or press Esc first");
    let finish: () => void = () => {};
    this.running = new Promise<void>((resolve) => {
      finish = resolve;
    });
    try {
      await this.closeSession();
      return await work();
    } finally {
      this.running = undefined;
      finish();
    }
  }

  private async closeSession(): Promise<void> {
    if (this.session === undefined || this.sessionClosed) return;
    this.sessionClosed = true;
    await this.session.close();
  }

  private start(typed: string | undefined): void {
    let text = typed;
    const previous = this.session;
    const continuePrevious = !this.forgetTask && previous !== undefined && this.lastResult?.status !== "completed";
    const resumeId = this.resumeTaskId ?? (continuePrevious ? previous.taskId : undefined);
    this.resumeTaskId = undefined;
    this.forgetTask = false;
    const workspaceChange = resumeId === undefined ? undefined : this.workspaceChange;
    this.workspaceChange = undefined;
    // A task opened from the command line or /resume has nothing on screen yet: show its transcript first.
    const replay = this.replayOnResume;
    this.replayOnResume = false;
    let sessionCreated = false;
    this.running = (async () => {
      await this.closeSession();
      if (previous) this.addToTotals(previous);
      this.session = undefined;
      const images = this.pendingImages.splice(0);
      if (text !== undefined) {
        const expanded = await expandMentionsWithImages(text, { workspace: this.settings.cwd });
        text = expanded.text;
        images.push(...expanded.images);
      }
      const start =
        resumeId !== undefined ? { kind: "resume" as const, taskId: resumeId, ...(text ? { message: text } : {}), ...(workspaceChange ? { workspaceChange } : {}) } : { kind: "new" as const, task: text ?? "" };
      const session = await (this.options.createSession ?? createSession)({
        settings: { ...this.settings, plan: this.mode === "plan" },
        host: this.options.host,
        ...(this.options.scenario ? { scenario: this.options.scenario } : {}),
        start,
        pendingUserMessages: () => this.queue.drain(),
        processes: this.backgroundProcesses,
        keptMcp: this.mcp,
        ...(images.length > 0 ? { images } : {}),
      });
      sessionCreated = true;
      if (this.exitRequested) {
        // The user quit while the session was being created: it stops here (#11 item 6).
        await session.close();
        return;
      }
      this.session = session;
      this.sessionClosed = false;
      if (!this.knownTaskIds.includes(session.taskId)) this.knownTaskIds.push(session.taskId);
      session.task.mode = this.mode;
      session.setAutoMode(this.autoMode);
      // The session says the resumed message as `user_feedback` when it runs (after the replay).
      if (start.kind === "resume" && replay) for (const message of session.task.messages.takeInitialMessages()) this.options.host.onMessage(message);
      const started = Date.now();
      this.lastResult = await session.run();
      this.notify("info", endOfTaskSummary({ result: this.lastResult, elapsedMs: Date.now() - started, spent: taskSpending(session) }));
      // The end of a task (an interruption is none): its processes end unless the user keeps them.
      const kept =
        this.lastResult.status === "aborted" || this.exitRequested
          ? undefined
          : await askToKeepProcesses({ host: this.options.host, table: this.backgroundProcesses, taskId: session.taskId, signal: this.quitSignal.signal });
      if (kept !== undefined) this.notify("info", kept);
    })()
      .catch((error: unknown) => {
        this.lastResult = { status: "failed", error: error instanceof Error ? error.message : String(error) };
        // No task holds what the user typed (the data folder may be gone): it is named, and ↑ brings it back.
        const kept = !sessionCreated && typed !== undefined && typed.trim() !== "" ? `\n${notSent(typed, resumeId !== undefined)}` : "";
        this.notify("error", `${this.lastResult.error ?? "failed"}${kept}`);
      })
      .finally(() => {
        this.running = undefined;
        if (this.options.exitWhenDone || this.exitRequested) {
          this.onExit();
          return;
        }
        // The task ended before a tool boundary came: what waited is the next message.
        if (this.queue.typed.length > 0) this.start(this.queue.takeTyped().join("\n\n"));
      });
  }

  /** Tab on a word starting with @: the MCP resources and paths it may complete to. */
  async completeMention(partial: string): Promise<string[]> {
    return [...completeResourceMention(partial, this.mcp.references()), ...(await completeMentionPath(partial, this.settings.cwd))];
  }

  enqueue(text: string): void {
    if (!this.running) {
      this.submit(text);
      return;
    }
    this.queue.push(text);
  }

  queued(): readonly string[] {
    return this.queue.typed;
  }

  withdrawQueued(): string | undefined {
    return this.queue.withdraw();
  }

  private addToTotals(session: Session): void {
    const totals = taskSpending(session);
    for (const key of ["tokensIn", "tokensOut", "cost"] as const) this.sessionTotals[key] += totals[key];
  }

  /**
   * `/compact` and `/uncompact` (src/context). While a step runs, compaction waits for the
   * next request (a task never has two requests in flight); between steps it runs at once,
   * on the live task or on the stored one.
   */
  contextCommand(command: "compact" | "uncompact"): void {
    const session = this.session;
    if (session && this.running) {
      if (command === "uncompact") {
        this.notify("info", "/uncompact works between steps: press Esc to stop this one first.");
        return;
      }
      void session.context.compactWhenPossible().then((outcome) => this.notify("info", outcome.text));
      return;
    }
    const taskId = session?.taskId ?? this.resumeTaskId;
    if (taskId === undefined) {
      this.notify("error", "There is no task to condense yet.");
      return;
    }
    this.running = (async () => {
      if (session) {
        const outcome = command === "compact" ? await session.context.compact() : await session.context.uncompact();
        if (!outcome.done) this.notify("info", outcome.text);
        return;
      }
      const { compactStoredTask } = await import("./compact-command.js");
      await compactStoredTask({
        settings: this.options.settings,
        taskId,
        undo: command === "uncompact",
        ...(this.options.scenario ? { scenario: this.options.scenario } : {}),
        onMessage: (message) => this.options.host.onMessage(message),
      });
    })()
      .catch((error: unknown) => this.notify("error", `/${command} failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        this.running = undefined;
      });
  }

  /** A message of the UI's own, between tasks (no Task to say it). */
  notify(kind: "info" | "error", text: string): void {
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
    this.quitSignal.abort();
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
    const next = nextMode({ mode: this.mode, auto: this.autoMode }, this.autoAvailable);
    this.autoMode = next.auto;
    this.session?.setAutoMode(next.auto);
    this.setMode(next.mode);
    return this.mode;
  }

  setMode(mode: Mode): void {
    this.mode = mode;
    if (this.session) this.session.task.mode = this.mode;
  }

  slashSession(): SlashSession {
    return createSlashSession(this);
  }

  status(): TuiStatus {
    // The task's whole spending: its subagents' (running ones so far) included.
    const totals = this.session === undefined ? undefined : taskSpending(this.session);
    const status: TuiStatus = {
      ...(totals === undefined ? {} : { tokensIn: totals.tokensIn, tokensOut: totals.tokensOut }),
      model: this.settings.model,
      mode: this.mode,
      ...(this.autoMode ? { autoMode: true } : {}),
      tokensUsed: this.session?.context.tokensUsed() ?? 0,
      contextWindow: this.session?.provider.model.contextWindow ?? 0,
      cost: totals?.cost ?? 0,
      busy: this.running !== undefined,
      ...(this.session?.budgetLeft() ? { budgetLeft: this.session.budgetLeft() } : {}),
    };
    const command = this.statusLineCommand;
    if (command === undefined) return status;
    command.update({ taskId: this.taskId, model: status.model, mode: status.mode, cost: status.cost, tokensUsed: status.tokensUsed, contextWindow: status.contextWindow });
    return command.line === undefined ? status : { ...status, userLine: command.line };
  }

  processes(): ReturnType<ProcessTable["list"]> {
    return this.backgroundProcesses.running();
  }

  async close(): Promise<void> {
    this.quitSignal.abort();
    await this.running;
    await this.closeSession();
    await this.mcp.close();
    await this.backgroundProcesses.dispose();
  }
}
