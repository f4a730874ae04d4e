/**
 * A task's events from `GET /api/tasks/:id/events` (docs/server.md) folded into
 * what the page shows. Messages fold exactly as `cairn run --json` lines do (a
 * whole message replaces, a `delta` appends): the same reader does it. The
 * rest (`state`, `status`, `answered`, `truncate`, `result`) is kept beside it.
 * Pure: no DOM, no network; the page asks it what changed.
 */
import { JsonEventReader, type JsonMessage } from "../ui/headless/json-events-reader.js";

export interface Answer {
  response: string;
  /** Which client answered, as the server names it (`X-Cairn-Client`, or its address). */
  by?: string;
  /** The words of a reply. */
  text?: string;
}

export interface Totals {
  tokensIn: number;
  tokensOut: number;
  cost: number;
}

/** What one event changed: a message (by id), the message list, or the rest. */
export interface FeedChange {
  message?: string;
  list?: boolean;
  other?: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The id of an open ask as `state` or a task row gives it: an id, an object with one, or only whether there is one. */
export function openAskOf(value: unknown): string | boolean {
  if (typeof value === "string") return value;
  if (isRecord(value) && typeof value["id"] === "string") return value["id"];
  if (isRecord(value) && typeof value["askId"] === "string") return value["askId"];
  return value === true;
}

export class TaskFeed {
  private reader = new JsonEventReader();
  /** Message ids in order (the reader's map keeps the order of first lines). */
  ids: string[] = [];
  /** Bumped whenever a message changes, by message id: a view re-renders what moved. */
  readonly revisions = new Map<string, number>();
  readonly answers = new Map<string, Answer>();
  status = "";
  running = false;
  /** Plan or act, as the server last said it (`state`, or a logged switch); undefined until it did. */
  mode: "plan" | "act" | undefined;
  /** `state.openAsk` as the server last said it. */
  private openAsk: string | boolean = false;
  /** The last durable event's sequence number seen. */
  seq = 0;
  totals: Totals | undefined;
  result: Record<string, unknown> | undefined;

  message(id: string): JsonMessage | undefined {
    return this.reader.messages.get(id);
  }

  get messages(): JsonMessage[] {
    return this.ids.map((id) => this.reader.messages.get(id)!);
  }

  /** Folds one event (the object of an SSE `data` line, or a message of `GET /api/tasks/:id`). */
  apply(event: Record<string, unknown>): FeedChange {
    if (typeof event["seq"] === "number" && event["type"] !== "state") this.seq = Math.max(this.seq, event["seq"]);
    switch (event["type"]) {
      case "say":
      case "ask": {
        const before = this.reader.messages.size;
        const message = this.reader.push(event);
        if (message === undefined) return {};
        this.revisions.set(message.id, (this.revisions.get(message.id) ?? 0) + 1);
        const switched = message.say === "info" && !message.partial ? message.meta?.["mode"] : undefined;
        if (switched === "plan" || switched === "act") this.mode = switched;
        if (this.reader.messages.size !== before) {
          this.ids = [...this.ids, message.id];
          return { message: message.id, list: true };
        }
        return { message: message.id };
      }
      case "truncate":
        return { list: this.truncate(typeof event["count"] === "number" ? event["count"] : this.ids.length), other: true };
      case "status":
        if (typeof event["status"] === "string") this.status = event["status"];
        this.totals = { tokensIn: numberOr(event["tokensIn"], 0), tokensOut: numberOr(event["tokensOut"], 0), cost: numberOr(event["cost"], 0) };
        return { other: true };
      case "state":
        if (typeof event["running"] === "boolean") this.running = event["running"];
        if (typeof event["status"] === "string") this.status = event["status"];
        this.openAsk = openAskOf(event["openAsk"]);
        if (event["mode"] === "plan" || event["mode"] === "act") this.mode = event["mode"];
        if (typeof event["seq"] === "number") this.seq = Math.max(this.seq, event["seq"]);
        return { other: true };
      case "answered":
        if (typeof event["askId"] === "string") {
          const answer: Answer = { response: typeof event["response"] === "string" ? event["response"] : "answered" };
          if (typeof event["by"] === "string") answer.by = event["by"];
          if (typeof event["text"] === "string") answer.text = event["text"];
          this.answers.set(event["askId"], answer);
          return { message: event["askId"], other: true };
        }
        return {};
      case "result":
        this.result = event;
        if (typeof event["status"] === "string") this.status = event["status"];
        this.running = false;
        return { other: true };
      default:
        return {};
    }
  }

  /**
   * The ask waiting for an answer, if any: the one `state` names, or (when it
   * says only that there is one) the last final ask nobody answered.
   */
  openAskMessage(): JsonMessage | undefined {
    if (this.openAsk === false) return undefined;
    if (typeof this.openAsk === "string") {
      const named = this.message(this.openAsk);
      return named !== undefined && !this.answers.has(named.id) ? named : undefined;
    }
    const last = this.messages.at(-1);
    return last?.type === "ask" && !last.partial && !this.answers.has(last.id) ? last : undefined;
  }

  /** Whether `ask` was answered: an `answered` event came for it, or the task went on past it. */
  isAnswered(ask: JsonMessage): boolean {
    if (this.answers.has(ask.id)) return true;
    return this.openAskMessage()?.id !== ask.id && this.ids.at(-1) !== ask.id;
  }

  /** A restore kept the first `count` messages. */
  private truncate(count: number): boolean {
    if (count >= this.ids.length) return false;
    for (const id of this.ids.slice(count)) {
      this.reader.messages.delete(id);
      this.revisions.delete(id);
    }
    this.ids = this.ids.slice(0, count);
    return true;
  }
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}
