/**
 * The terminal UI's controller for a task that runs in `cairn serve`: Enter
 * sends a message (`POST /messages`), Esc or Ctrl+C stops the task
 * (`POST /abort`) only when pressed a second time, as other clients may be
 * watching it, and Ctrl+D or `/detach` leaves it running.
 */
import type { TuiController, TuiMode, TuiStatus } from "../../ui/tui/controller.js";
import type { SlashSession } from "../../ui/tui/slash-commands.js";
import type { TuiHost } from "../../ui/tui/tui-host.js";
import type { RemoteTaskFeed } from "./remote-task-feed.js";

/** What the controller asks of the server. */
export interface RemoteTaskActions {
  sendMessage(text: string): Promise<void>;
  abort(): Promise<void>;
  /** `/undo`: the server takes back the task's last step (the task is stopped first); what it says. */
  undo(): Promise<string>;
  /** `/restore <checkpoint> [files|task|both]` in the server; what it says. */
  restore(checkpoint: string, mode: "files" | "task" | "both"): Promise<string>;
  /** Tab or `/mode`: the server switches the running task to plan or act (`POST /mode`); every client is told. */
  setMode(mode: TuiMode): Promise<void>;
  /** `/model ID`: the model the task goes on with from its next run (`POST /model`); what the server says. */
  setModel(model: string): Promise<string>;
}

/** How long a first Esc or Ctrl+C waits for the second one. */
export const confirmWindowMs = 4000;

export const attachKeys = "Esc Esc stop · ^D detach";

export class AttachController implements TuiController {
  #armedAt: number | undefined;
  /** Messages sent while the task runs that it has not said yet (they reach the model at its next tool boundary). */
  #queued: readonly string[] = [];
  #left = false;

  constructor(
    private readonly options: {
      host: TuiHost;
      feed: RemoteTaskFeed;
      actions: RemoteTaskActions;
      /** Shown where the local UI shows the model: which server and task. */
      label: string;
      /** The UI is leaving (detached, or the task stopped and the user quit). */
      onLeave: (how: "detached" | "stopped") => void;
      now?: () => number;
    },
  ) {}

  #now(): number {
    return this.options.now?.() ?? Date.now();
  }

  #armed(): boolean {
    return this.#armedAt !== undefined && this.#now() - this.#armedAt < confirmWindowMs;
  }

  submit(text: string): void {
    this.options.actions.sendMessage(text).catch((error: unknown) => {
      this.#queued = this.#queued.filter((queued) => queued !== text);
      this.options.feed.notify("error", `Your message did not reach the server (${error instanceof Error ? error.message : String(error)}): "${text}". Press ↑ to get it back and Enter to send it again.`);
    });
  }

  /** Enter while the task runs: sent at once, and shown as queued until the task says it reached the model. */
  enqueue(text: string): void {
    this.#queued = [...this.#queued, text];
    this.submit(text);
  }

  queued(): readonly string[] {
    return this.#queued;
  }

  /** The task said one of the user's messages (`user_feedback`): it is no longer waiting. */
  delivered(text: string): void {
    const index = this.#queued.findIndex((queued) => text.includes(queued));
    if (index !== -1) this.#queued = this.#queued.filter((_, at) => at !== index);
  }

  /** The first Esc or Ctrl+C asks for confirmation; the second within a few seconds stops the task. */
  abort(): void {
    const ask = this.options.host.getSnapshot().pendingAsk;
    if (!this.options.feed.state.running && ask === undefined) return;
    // Nothing runs while the result waits for acceptance.
    if (ask?.ask === "completion_result") return;
    if (!this.#armed()) {
      this.#armedAt = this.#now();
      return;
    }
    this.#armedAt = undefined;
    this.#stop();
  }

  #stop(): void {
    this.options.actions.abort().catch((error: unknown) => {
      this.options.feed.notify("error", `The task could not be stopped: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  /** The second Ctrl+C: stops the task when the first one asked to (as quitting the local UI does), then leaves. */
  exit(): void {
    const stopping = this.#armed();
    this.#armedAt = undefined;
    if (stopping) this.#stop();
    this.#leave(stopping ? "stopped" : "detached");
  }

  detach(): void {
    this.#leave("detached");
  }

  #leave(how: "detached" | "stopped"): void {
    if (this.#left) return;
    this.#left = true;
    this.options.onLeave(how);
  }

  /** Tab: the other mode, shown at once; the server's `state` event confirms it (or the error puts it back). */
  toggleMode(): TuiMode {
    const next = this.options.feed.state.mode === "plan" ? "act" : "plan";
    this.setMode(next);
    return next;
  }

  setMode(mode: TuiMode): void {
    const { state } = this.options.feed;
    const before = state.mode;
    state.mode = mode;
    this.options.actions.setMode(mode).catch((error: unknown) => {
      if (state.mode === mode) state.mode = before;
      this.options.feed.notify("error", `The mode was not switched: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  status(): TuiStatus {
    const { state } = this.options.feed;
    return {
      model: this.options.label,
      mode: state.mode,
      tokensUsed: state.contextTokens,
      contextWindow: state.contextWindow,
      cost: state.cost,
      tokensIn: state.tokensIn,
      tokensOut: state.tokensOut,
      busy: state.running,
      keys: attachKeys,
      ...(this.#armed() ? { notice: "Esc again stops the task · ^D detaches" } : {}),
    };
  }

  slashSession(): SlashSession {
    return attachedSlashSession(
      () => this.detach(),
      this.options.actions,
      (mode) => this.setMode(mode),
      () => this.options.feed.state.model,
    );
  }
}

const notHere = (): never => {
  throw new Error("not available in an attached terminal (it works in the terminal that runs the task, or in the web UI)");
};

/** What slash commands may do in an attached UI: leave, switch the mode, choose the model, undo and restore through the server. The local UI's other commands are not offered (attach-slash-commands.ts). */
function attachedSlashSession(leave: () => void, actions: RemoteTaskActions, setMode: (mode: TuiMode) => void, model: () => string | undefined): SlashSession {
  return {
    currentTask: () => undefined,
    currentTaskId: () => undefined,
    newTask: notHere,
    setModel: (spec) => actions.setModel(spec),
    describeModel: () => `${model() ?? "the server's default"} (the task in the server; /model <id> chooses the one it goes on with from its next run)`,
    setMode,
    costReport: notHere,
    undo: () => actions.undo(),
    restore: (checkpoint, mode) => actions.restore(checkpoint, mode),
    history: notHere,
    resume: notHere,
    mcpReport: notHere,
    contextCommand: notHere,
    exit: leave,
  };
}
