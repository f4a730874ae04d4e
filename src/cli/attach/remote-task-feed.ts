/**
 * A task of `cairn serve` drawn by the terminal UI: the events of its stream
 * (docs/server.md) are folded into UI messages as `cairn run --json` lines are
 * (JsonEventReader: a snapshot, then deltas) and handed to the same TuiHost the
 * local UI has, so the same components draw them. The ask the server says is
 * open waits for this user (TuiHost.answerAsk, the menu and its keys); an
 * answer given here is sent to the server, one given in another client closes
 * it here (`answered`, `state`).
 */
import { modelSwitchOf, modeSwitchOf, type ApiRequestMeta } from "../../task/contracts/message-meta.js";
import type { AskMessage, AskResponse, UiMessage } from "../../task/contracts/messages.js";
import { JsonEventFormatError, JsonEventReader } from "../../ui/headless/json-events-reader.js";
import type { JsonMessage } from "../../ui/headless/json-events-reader.js";
import { AnsweredElsewhereError } from "../../ui/tui/tui-host.js";
import type { TuiHost } from "../../ui/tui/tui-host.js";
import { endOfTaskSummary } from "../end-of-task-summary.js";
import type { TaskEvent } from "./task-event-stream.js";

/** What became of an answer sent to the server. */
export type AnswerOutcome = "accepted" | "answered-already";

export interface RemoteTaskFeedOptions {
  host: TuiHost;
  /** Sends this user's answer (`POST /api/tasks/:id/answer`). */
  sendAnswer: (askId: string, response: AskResponse) => Promise<AnswerOutcome>;
  /** A message of the user's reached the model (the task said it as `user_feedback`). */
  onUserMessage?: (text: string) => void;
}

/** The task as its events describe it, for the status line. */
export interface RemoteTaskState {
  running: boolean;
  status: string | undefined;
  tokensIn: number;
  tokensOut: number;
  cost: number;
  /** Tokens in the context and the model's window, from the last request. */
  contextTokens: number;
  contextWindow: number;
  /** Plan or act, as the server last said (a `state` event, or a logged switch). */
  mode: "plan" | "act";
  /** The task's model as the server said it (its row), or the one a client chose for its next run. */
  model: string | undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

/** The server's `response` (`yes`, `no`, `messageResponse`) as the UI's answer. */
export function askResponseOf(response: unknown, text: unknown): AskResponse | undefined {
  const said = typeof text === "string" && text !== "" ? { text } : {};
  if (response === "yes") return { response: "yes", ...said };
  if (response === "no") return { response: "no", ...said };
  if (response === "messageResponse" || response === "message") return { response: "message", text: typeof text === "string" ? text : "" };
  return undefined;
}

/** A folded message as the UI's message (a copy: the reader keeps appending to its own). */
function uiMessageOf(message: JsonMessage): UiMessage | undefined {
  const base = {
    id: message.id,
    ts: message.ts,
    text: message.text,
    partial: message.partial,
    ...(message.meta === undefined ? {} : { meta: message.meta }),
    ...(message.subagentId === undefined ? {} : { subagentId: message.subagentId }),
  };
  if (message.type === "say" && message.say !== undefined) return { ...base, type: "say", say: message.say as Extract<UiMessage, { type: "say" }>["say"] };
  if (message.type === "ask" && message.ask !== undefined) return { ...base, type: "ask", ask: message.ask as AskMessage["ask"] };
  return undefined;
}

/** An ask named by a `state` event: its id, or the ask itself. */
function askIdOf(value: unknown): string | undefined {
  if (typeof value === "string" && value !== "") return value;
  if (isRecord(value) && typeof value["id"] === "string") return value["id"];
  return undefined;
}

/** The asks a `state` event says are open: `openAsks` (several, when subagents ask at once), else `openAsk`. */
function openAskIds(event: TaskEvent): Set<string> {
  const listed = Array.isArray(event["openAsks"]) ? event["openAsks"] : [event["openAsk"]];
  return new Set(listed.flatMap((value) => askIdOf(value) ?? []));
}

export class RemoteTaskFeed {
  readonly state: RemoteTaskState = { running: false, status: undefined, tokensIn: 0, tokensOut: 0, cost: 0, contextTokens: 0, contextWindow: 0, mode: "act", model: undefined };
  readonly #host: TuiHost;
  readonly #sendAnswer: RemoteTaskFeedOptions["sendAnswer"];
  readonly #onUserMessage: RemoteTaskFeedOptions["onUserMessage"];
  #reader = new JsonEventReader();
  /** The asks the server last said are open. */
  #openAsks = new Set<string>();
  /** Asks waiting for this user, and how to close them when they are answered elsewhere. */
  readonly #waiting = new Set<string>();
  /** Answers the server announced (`answered`), by ask id. */
  readonly #answers = new Map<string, AskResponse | undefined>();
  /** Messages still being written (partial), by id. */
  readonly #open = new Set<string>();
  /** What each request spent as it streams (its api_req_started meta), by id; the status line counts them up. */
  readonly #requests = new Map<string, { tokensIn: number; tokensOut: number; cost: number }>();
  /** What a `status` event counted beyond these requests (subagents', earlier runs'). */
  #beyondRequests = { tokensIn: 0, tokensOut: 0, cost: 0 };
  #notices = 0;

  constructor(options: RemoteTaskFeedOptions) {
    this.#host = options.host;
    this.#sendAnswer = options.sendAnswer;
    this.#onUserMessage = options.onUserMessage;
  }

  /** Shows a line of cairn's own (never sent anywhere). */
  notify(kind: "info" | "warning" | "error", text: string): void {
    this.#notices += 1;
    this.#host.onMessage({ type: "say", say: kind, id: `attach-notice-${this.#notices}`, ts: Date.now(), text, partial: false });
  }

  push(event: TaskEvent): void {
    switch (event.type) {
      case "say":
      case "ask":
        this.#message(event);
        return;
      case "state":
        this.#state(event);
        return;
      case "answered":
        this.#answered(event);
        return;
      case "status":
        this.#status(event);
        return;
      case "truncate":
        this.#truncated(numberOr(event["count"], 0));
        return;
      case "result":
        this.#result(event);
        return;
      case "error":
        this.notify("error", `The server: ${typeof event["message"] === "string" ? event["message"] : "an error"}`);
        return;
      default:
        return;
    }
  }

  #message(event: TaskEvent): void {
    let folded: JsonMessage | undefined;
    try {
      folded = this.#reader.push(event);
    } catch (error) {
      // A delta of a message this client never saw begin: its next whole line brings it.
      if (error instanceof JsonEventFormatError) return;
      throw error;
    }
    if (folded === undefined) return;
    const message = uiMessageOf(folded);
    if (message === undefined) return;
    if (message.partial) this.#open.add(message.id);
    else this.#open.delete(message.id);
    const request = message.type === "say" && message.say === "api_req_started" ? (message.meta as Partial<ApiRequestMeta> | undefined) : undefined;
    if (request !== undefined) this.#request(message.id, request);
    if (message.type === "say" && message.say === "user_feedback" && !message.partial) this.#onUserMessage?.(message.text);
    const switched = modeSwitchOf(message);
    if (switched !== undefined) this.state.mode = switched.mode;
    const chosen = modelSwitchOf(message);
    if (chosen !== undefined) this.state.model = chosen.model;
    if (message.type === "ask" && !message.partial && this.#openAsks.has(message.id) && !this.#answers.has(message.id) && !this.#waiting.has(message.id)) {
      this.#wait(message);
      return;
    }
    this.#host.onMessage(message);
  }

  #state(event: TaskEvent): void {
    if (typeof event["running"] === "boolean") this.state.running = event["running"];
    if (typeof event["status"] === "string") this.state.status = event["status"];
    if (event["mode"] === "plan" || event["mode"] === "act") this.state.mode = event["mode"];
    this.#openAsks = openAskIds(event);
    for (const id of [...this.#waiting]) if (!this.#openAsks.has(id)) this.#closeElsewhere(id);
    for (const id of this.#openAsks) {
      const open = this.#reader.messages.get(id);
      if (open === undefined || open.type !== "ask" || open.partial || this.#waiting.has(id) || this.#answers.has(id)) continue;
      const message = uiMessageOf(open);
      if (message?.type === "ask") this.#wait(message);
    }
    // A task that does not run writes nothing: what was being written when a server died stays as it was.
    if (!this.state.running) this.#closeOpenMessages();
  }

  /** The log kept only its first `count` messages (a restore, or a resume dropping an interrupted step's leftovers). */
  #truncated(count: number): void {
    if (count >= this.#reader.messages.size) return;
    this.notify("info", `The task's transcript was cut back to its first ${count} messages (a checkpoint was restored, or a resume dropped an interrupted step); what is printed above stays on screen.`);
  }

  #answered(event: TaskEvent): void {
    const askId = typeof event["askId"] === "string" ? event["askId"] : undefined;
    if (askId === undefined) return;
    this.#answers.set(askId, askResponseOf(event["response"], event["text"]));
    if (this.#waiting.has(askId)) this.#closeElsewhere(askId);
  }

  /** A request's usage so far: the status line counts tokens and cost as the answers stream, as the local UI does. */
  #request(id: string, meta: Partial<ApiRequestMeta>): void {
    if (meta.contextTokens !== undefined) this.state.contextTokens = meta.contextTokens;
    if (meta.contextWindow !== undefined) this.state.contextWindow = meta.contextWindow;
    this.#requests.set(id, { tokensIn: numberOr(meta.tokensIn, 0), tokensOut: numberOr(meta.tokensOut, 0), cost: numberOr(meta.cost, 0) });
    this.#total();
  }

  #total(): void {
    const sum = { ...this.#beyondRequests };
    for (const request of this.#requests.values()) {
      sum.tokensIn += request.tokensIn;
      sum.tokensOut += request.tokensOut;
      sum.cost += request.cost;
    }
    this.state.tokensIn = sum.tokensIn;
    this.state.tokensOut = sum.tokensOut;
    this.state.cost = sum.cost;
  }

  /** The task's totals as its log counts them: what they hold beyond the requests seen here is kept apart. */
  #status(event: TaskEvent): void {
    if (typeof event["status"] === "string") this.state.status = event["status"];
    if (typeof event["tokensIn"] !== "number") return;
    this.#beyondRequests = { tokensIn: 0, tokensOut: 0, cost: 0 };
    this.#total();
    this.#beyondRequests = {
      tokensIn: Math.max(0, numberOr(event["tokensIn"], 0) - this.state.tokensIn),
      tokensOut: Math.max(0, numberOr(event["tokensOut"], 0) - this.state.tokensOut),
      cost: Math.max(0, numberOr(event["cost"], 0) - this.state.cost),
    };
    this.#total();
  }

  #result(event: TaskEvent): void {
    this.#status(event);
    this.#closeOpenMessages();
    const status = event["status"];
    const subagents = isRecord(event["subagents"]) ? event["subagents"] : {};
    const summary = endOfTaskSummary({
      result: { status: status === "completed" || status === "aborted" || status === "budget" ? status : "failed" },
      elapsedMs: numberOr(event["durationMs"], 0),
      spent: {
        tokensIn: this.state.tokensIn,
        tokensOut: this.state.tokensOut,
        cost: this.state.cost,
        subagents: { count: numberOr(subagents["count"], 0), cost: numberOr(subagents["cost"], 0), tokensIn: numberOr(subagents["tokensIn"], 0), tokensOut: numberOr(subagents["tokensOut"], 0) },
      },
    });
    this.notify("info", summary);
  }

  /** The open ask waits for this user; their answer goes to the server. */
  #wait(message: AskMessage): void {
    this.#waiting.add(message.id);
    const controller = new AbortController();
    this.#host.answerAsk(message, controller.signal).then(
      (response) => {
        this.#waiting.delete(message.id);
        this.#deliver(message, response);
      },
      (error: unknown) => {
        // Answered in another client (AnsweredElsewhereError): nothing to send.
        this.#waiting.delete(message.id);
        if (!(error instanceof AnsweredElsewhereError)) this.notify("error", `The question could not be shown: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
  }

  #deliver(message: AskMessage, response: AskResponse): void {
    this.#sendAnswer(message.id, response).then(
      (outcome) => {
        if (outcome === "answered-already") this.notify("warning", "This question was answered in another client first; your answer was not used.");
      },
      (error: unknown) => {
        this.notify("error", `Your answer did not reach the server (${error instanceof Error ? error.message : String(error)}); answer again.`);
        // Still open on the server: ask again here.
        if (this.#openAsks.has(message.id) && !this.#answers.has(message.id) && !this.#waiting.has(message.id)) this.#wait(message);
      },
    );
  }

  #closeElsewhere(askId: string): void {
    this.#waiting.delete(askId);
    this.#host.answeredElsewhere(askId, this.#answers.get(askId));
  }

  /** Messages left partial by a task that no longer runs are shown as final, as far as they went. */
  #closeOpenMessages(): void {
    for (const id of [...this.#open]) {
      this.#open.delete(id);
      const folded = this.#reader.messages.get(id);
      if (folded === undefined) continue;
      folded.partial = false;
      const message = uiMessageOf(folded);
      if (message !== undefined) this.#host.onMessage(message);
    }
  }
}
