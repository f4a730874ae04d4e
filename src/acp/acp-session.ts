/**
 * One ACP session: one cairn Task kept alive between prompts (SPEC T1: one
 * task, one instance), and the Host that projects its messages to the editor.
 * A prompt runs the Task until it asks the user something or ends; the next
 * prompt answers that ask. A cancel is the Task's staged abort (SPEC T5); the
 * next prompt then resumes the same task from its log.
 */
import { metaOf } from "../task/contracts/message-meta.js";
import type { AgentContext, AvailableCommand, SessionConfigOption, SessionModeState, SessionUpdate, StopReason } from "@agentclientprotocol/sdk";
import { RequestError } from "@agentclientprotocol/sdk";
import type { ResolvedSettings } from "../config/index.js";
import type { Scenario } from "../llm/scripted/scenario.js";
import type { McpServerConfig } from "../mcp/config.js";
import type { Host } from "../task/contracts/host.js";
import type { AskMessage, AskResponse, UiMessage } from "../task/contracts/messages.js";
import type { TaskResult } from "../task/contracts/task-options.js";
import type { Mode } from "../task/contracts/tool-executor.js";
import { localOperations } from "../tools/operations.js";
import type { Session } from "../session/session.js";
import { clientOperations, type ClientOffers } from "./client-operations.js";
import { alwaysKey, decisionFor, isPermissionAsk, permissionOptions } from "./permissions.js";
import type { UserTurn } from "./prompt-content.js";
import { stopHintOf, stopReasonFor } from "./stop-reasons.js";
import { withToolOutcomes } from "./tool-outcomes.js";
import { UpdateProjection } from "./update-projection.js";
import { configOptions, modeIds, modeState, type AcpModeId } from "./session-config.js";
import { KeptMcpServers } from "../session/kept-mcp-servers.js";
import { mcpPromptCommands } from "./available-commands.js";

export interface AcpSessionOptions {
  sessionId: string;
  cwd: string;
  settings: ResolvedSettings;
  client: AgentContext;
  offers: ClientOffers;
  notices: boolean;
  mcpServers: McpServerConfig[];
  scenario?: Scenario;
  /** Whether the task already exists in the store (a loaded session). */
  created: boolean;
  log: (text: string) => void;
}

interface PendingAsk {
  message: AskMessage;
  resolve: (answer: AskResponse) => void;
}

interface Turn {
  resolve: (reason: StopReason) => void;
  cancelled: boolean;
}

interface LiveTask {
  session: Session;
  ended: Promise<void>;
}

export class AcpSession implements Host {
  mode: Mode;
  model: string;
  private created: boolean;
  private live: LiveTask | undefined;
  private pendingAsk: PendingAsk | undefined;
  private turn: Turn | undefined;
  private stopHint: StopReason | undefined;
  /** The model changed while a task waits: the next prompt restarts it on the new model. */
  private restartNeeded = false;
  /** Auto mode (its judge) is configured for this session, and whether it is on. */
  private readonly autoAvailable: boolean;
  private auto: boolean;
  private readonly alwaysAllowed = new Set<string>();
  private projection: UpdateProjection;
  private sending: Promise<void> = Promise.resolve();
  /** MCP servers kept from the first prompt's task for the next ones: their prompts join the editor's commands. */
  readonly mcp = new KeptMcpServers();
  /** The commands of the user's files, and the last list sent. */
  private readonly commands = { base: [] as AvailableCommand[], sent: "" };

  constructor(private readonly options: AcpSessionOptions) {
    this.mode = options.settings.plan ? "plan" : "act";
    this.autoAvailable = options.settings.autoMode?.enabled === true && !options.settings.yes;
    this.auto = this.autoAvailable;
    this.model = options.settings.model;
    this.created = options.created;
    this.projection = new UpdateProjection({ cwd: options.cwd, notices: options.notices });
    // A server that connects, goes or changes its prompts (a list-changed notification): the editor's list follows.
    this.mcp.onChange(() => this.announceCommands());
  }

  get sessionId(): string {
    return this.options.sessionId;
  }

  // ---- Host ----

  onMessage(message: UiMessage): void {
    // A request that ends says why; a normal end clears an earlier limit, a failed request keeps it.
    if (!message.partial && metaOf(message, "api_req_started")?.stopReason !== undefined) {
      this.stopHint = stopHintOf(message);
    }
    this.send(this.projection.project(message));
    // The model refused: asking it again would only repeat the refusal. The turn ends with it;
    // the task stays resumable, so the next prompt can rephrase.
    if (this.stopHint === "refusal" && this.turn !== undefined) void this.live?.session.task.abortTask();
    const task = this.live?.session.task;
    if (task !== undefined && task.mode !== this.mode) {
      // The task switched mode by itself (a plan approved in --yes mode).
      this.mode = task.mode;
      this.send([
        { sessionUpdate: "current_mode_update", currentModeId: this.modeId },
        { sessionUpdate: "config_option_update", configOptions: this.state().configOptions },
      ]);
    }
  }

  answerAsk(message: AskMessage, signal: AbortSignal): Promise<AskResponse> {
    if (isPermissionAsk(message)) return this.requestPermission(message, signal);
    if (message.ask === "resume_task" || message.ask === "resume_completed_task") return Promise.resolve({ response: "yes" });
    // A question for the user: this prompt turn ends, the next prompt answers it.
    return new Promise<AskResponse>((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason instanceof Error ? signal.reason : new Error("the task was cancelled"));
        return;
      }
      this.pendingAsk = { message, resolve };
      signal.addEventListener(
        "abort",
        () => {
          if (this.pendingAsk?.message.id === message.id) this.pendingAsk = undefined;
          reject(signal.reason instanceof Error ? signal.reason : new Error("the task was cancelled"));
        },
        { once: true },
      );
      this.endTurn(this.stopHint ?? "end_turn");
    });
  }

  // ---- ACP methods ----

  async prompt(user: UserTurn): Promise<StopReason> {
    if (this.turn !== undefined) throw RequestError.invalidRequest(undefined, "a prompt is already running in this session; cancel it first");
    if (user.text.trim() === "" && user.images.length === 0) throw RequestError.invalidParams(undefined, "the prompt is empty");
    const stopped = new Promise<StopReason>((resolve) => {
      this.turn = { resolve, cancelled: false };
    });
    this.stopHint = undefined;
    const pending = this.pendingAsk;
    // Images cannot ride on an answer: the waiting task is resumed with the message and them.
    if (this.live !== undefined && pending !== undefined && !this.restartNeeded && user.images.length === 0) {
      this.pendingAsk = undefined;
      pending.resolve(this.answerWith(pending.message, user.text));
    } else {
      await this.startTask(user);
    }
    const reason = await stopped;
    await this.sending;
    return reason;
  }

  cancel(): void {
    const turn = this.turn;
    if (turn === undefined) return;
    turn.cancelled = true;
    if (this.live !== undefined) void this.live.session.task.abortTask();
    else this.endTurn("cancelled");
  }

  /** The modes and config options as the client should show them now. */
  state(): { modes: SessionModeState; configOptions: SessionConfigOption[] } {
    return { modes: modeState(this.modeId, this.autoAvailable), configOptions: configOptions({ mode: this.modeId, autoAvailable: this.autoAvailable, model: this.model, provider: this.options.settings.provider }) };
  }

  /** The mode as the client sees it: auto is act with the judge on. */
  get modeId(): AcpModeId {
    return this.auto && this.mode === "act" ? "auto" : this.mode;
  }

  /** Whether `id` is a mode of this session (auto only where auto mode is configured). */
  offersMode(id: string): id is AcpModeId {
    return (modeIds(this.autoAvailable) as string[]).includes(id);
  }

  /** `via` says which of the two ways the client used; the other one is told of the change. */
  setMode(id: AcpModeId, via: "mode" | "config_option"): void {
    this.mode = id === "plan" ? "plan" : "act";
    this.auto = id === "auto";
    const live = this.live?.session;
    if (live !== undefined) {
      live.task.mode = this.mode;
      live.setAutoMode(this.auto);
    }
    this.send([via === "mode" ? { sessionUpdate: "config_option_update", configOptions: this.state().configOptions } : { sessionUpdate: "current_mode_update", currentModeId: id }]);
  }

  setModel(model: string): void {
    if (model === this.model) return;
    this.model = model;
    if (this.live !== undefined) this.restartNeeded = true;
  }

  /** Sends the task's saved messages as updates (session/load), the user's own included. */
  replay(messages: UiMessage[]): void {
    const projection = new UpdateProjection({ cwd: this.options.cwd, notices: this.options.notices });
    for (const message of messages) this.send(projection.project(message, true));
  }

  /** Waits until every update so far went out. */
  flush(): Promise<void> {
    return this.sending;
  }

  /** Ends the session: stops its task and releases it. */
  async close(): Promise<void> {
    const live = this.live;
    if (live !== undefined) {
      await live.session.task.abortTask();
      await live.ended;
    }
    await this.mcp.close();
  }

  // ---- inside ----

  /** The next prompt answers the open question; for a plan, Act mode means "approved". */
  private answerWith(message: AskMessage, text: string): AskResponse {
    if (message.ask === "plan_mode_respond" && this.mode === "act") return text === "" ? { response: "yes" } : { response: "yes", text };
    return { response: "message", text };
  }

  private async startTask(user: UserTurn): Promise<void> {
    this.restartNeeded = false;
    if (this.live !== undefined) {
      // A waiting task is restarted (resumed from its log) for a new model or for images.
      const waiting = this.live;
      this.live = undefined;
      this.pendingAsk = undefined;
      await waiting.session.task.abortTask();
      await waiting.ended;
    }
    const { createSession } = await import("../session/session.js");
    const taskId = this.options.sessionId;
    const start = this.created ? { kind: "resume" as const, taskId, images: user.images, ...(user.text === "" ? {} : { message: user.text }) } : { kind: "new" as const, task: user.text, taskId, images: user.images };
    let session: Session;
    try {
      session = await createSession({
        settings: { ...this.options.settings, model: this.model, plan: this.mode === "plan" },
        host: this,
        ...(this.options.scenario ? { scenario: this.options.scenario } : {}),
        start,
        extraMcpServers: this.options.mcpServers,
        keptMcp: this.mcp,
        operations: clientOperations({
          client: this.options.client,
          sessionId: taskId,
          offers: this.options.offers,
          local: localOperations,
          onTerminal: (terminalId) => this.send(this.projection.attachTerminal(terminalId)),
        }),
        wrapToolExecutor: withToolOutcomes,
        onNotice: (text) => this.options.log(text),
      });
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      this.options.log(`session ${taskId}: ${text}`);
      this.send([{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: `cairn could not start the task: ${text}` } }]);
      this.endTurn(this.turn?.cancelled === true ? "cancelled" : "end_turn");
      return;
    }
    this.created = true;
    session.task.mode = this.mode;
    session.setAutoMode(this.auto);
    // Cancelled while the task was being set up: it starts aborted and ends at once, keeping its log.
    if (this.turn === undefined || this.turn.cancelled) void session.task.abortTask();
    const live: LiveTask = {
      session,
      ended: session
        .run()
        .catch((error: unknown): TaskResult => ({ status: "failed", error: error instanceof Error ? error.message : String(error) }))
        .then(async (result) => {
          await session.close().catch((error: unknown) => this.options.log(`closing task ${taskId}: ${String(error)}`));
          // A task replaced on a model change ends without ending the turn of its successor.
          if (this.live !== live) return;
          this.live = undefined;
          this.pendingAsk = undefined;
          this.endTurn(stopReasonFor({ cancelled: this.turn?.cancelled === true, result, hint: this.stopHint }));
        }),
    };
    this.live = live;
  }

  private async requestPermission(message: AskMessage, signal: AbortSignal): Promise<AskResponse> {
    let toolCallId = this.projection.currentToolCallId;
    if (toolCallId === undefined) {
      // An ask without a tool call of its own (e.g. new_task): show it as one first.
      toolCallId = message.id;
      this.send([{ sessionUpdate: "tool_call", toolCallId, title: message.text.split("\n", 1)[0] ?? message.ask, kind: "other", status: "pending" }]);
    }
    const key = alwaysKey(message);
    if (this.alwaysAllowed.has(key)) {
      this.send(this.projection.permissionAnswered(toolCallId, true));
      return { response: "yes" };
    }
    await this.sending;
    const request = this.options.client.request("session/request_permission", {
      sessionId: this.options.sessionId,
      toolCall: this.projection.toolCallSnapshot(toolCallId),
      options: permissionOptions,
    });
    const aborted = new Promise<never>((_resolve, reject) => {
      const onAbort = (): void => reject(signal.reason instanceof Error ? signal.reason : new Error("the task was cancelled"));
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    });
    request.catch(() => undefined);
    const response = await Promise.race([request, aborted]);
    const decision = decisionFor(response.outcome);
    if (decision.always) this.alwaysAllowed.add(key);
    this.send(this.projection.permissionAnswered(toolCallId, decision.answer.response === "yes"));
    return decision.answer;
  }

  private endTurn(reason: StopReason): void {
    const turn = this.turn;
    if (turn === undefined) return;
    this.turn = undefined;
    turn.resolve(turn.cancelled ? "cancelled" : reason);
  }

  /** Tells the editor which slash commands its prompt box can offer: the user's (`base`, when given) and the MCP servers' prompts. */
  announceCommands(base?: AvailableCommand[]): void {
    if (base !== undefined) this.commands.base = base;
    const availableCommands = [...this.commands.base, ...mcpPromptCommands(this.mcp.references()?.listPrompts() ?? [])];
    const listed = JSON.stringify(availableCommands);
    if (availableCommands.length === 0 || listed === this.commands.sent) return;
    this.commands.sent = listed;
    this.send([{ sessionUpdate: "available_commands_update", availableCommands }]);
  }

  private send(updates: SessionUpdate[]): void {
    if (updates.length === 0) return;
    const { client, sessionId } = this.options;
    this.sending = this.sending.then(async () => {
      for (const update of updates) {
        await client.notify("session/update", { sessionId, update }).catch((error: unknown) => {
          this.options.log(`could not send an update: ${error instanceof Error ? error.message : String(error)}`);
        });
      }
    });
  }
}
