import { createInterface } from "node:readline/promises";
import type { ResolvedSettings } from "../config/index.js";
import type { Scenario } from "../llm/scripted/scenario.js";
import type { TaskResult } from "../task/task.js";
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
class InteractiveController implements TuiController {
  private session: Session | undefined;
  private lastResult: TaskResult | undefined;
  private running: Promise<void> | undefined;
  private mode: Mode;
  private exitRequested = false;
  private readonly onExit: () => void;

  constructor(
    private readonly options: { settings: ResolvedSettings; host: TuiHost; scenario?: Scenario; exitWhenDone: boolean; onExit: () => void },
  ) {
    this.mode = options.settings.plan ? "plan" : "act";
    this.onExit = options.onExit;
  }

  get result(): TaskResult | undefined {
    return this.lastResult;
  }

  get taskId(): string | undefined {
    return this.session?.taskId;
  }

  submit(text: string): void {
    if (this.running) return;
    const previous = this.session;
    const resume = previous !== undefined && this.lastResult?.status !== "completed";
    this.running = (async () => {
      if (previous) await previous.close();
      const session = await createSession({
        settings: { ...this.options.settings, plan: this.mode === "plan" },
        host: this.options.host,
        ...(this.options.scenario ? { scenario: this.options.scenario } : {}),
        start: resume && previous ? { kind: "resume", taskId: previous.taskId, message: text } : { kind: "new", task: text },
      });
      this.session = session;
      session.task.mode = this.mode;
      this.lastResult = await session.run();
    })()
      .catch((error: unknown) => {
        this.lastResult = { status: "failed", error: error instanceof Error ? error.message : String(error) };
        this.session?.task.say("error", this.lastResult.error ?? "failed");
      })
      .finally(() => {
        this.running = undefined;
        if (this.options.exitWhenDone || this.exitRequested) this.onExit();
      });
  }

  abort(): void {
    if (this.session && this.running) void this.session.task.abortTask();
  }

  exit(): void {
    this.exitRequested = true;
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
    onExit: () => ui.instance?.unmount(),
  });
  const instance = renderTui({ controller, host, ...(options.initialTask ? { initialTask: options.initialTask } : {}) });
  ui.instance = instance;
  await instance.waitUntilExit();
  await controller.close();
  const result = controller.result;
  if (result?.status === "aborted" && controller.taskId) {
    process.stdout.write(`task interrupted; resume it with: cairn resume ${controller.taskId}\n`);
  }
  return result ? exitStatusFor(result) : 0;
}
