import type { Host } from "./host.js";
import type { AskMessage, AskType, SayMessage, SayType, UiMessage } from "./messages.js";
import type { TaskLog } from "./seams.js";

export interface SayOptions {
  partial?: boolean;
  meta?: Record<string, unknown>;
  /** Messages with the same key update one message in place while it is partial. */
  key?: string;
  /** Applied when the message is sent, so a fast stream pays for it at most ~25 times a second. */
  transform?: (raw: string, partial: boolean) => string;
}

interface Entry {
  message: UiMessage;
  raw: string;
  transform: ((raw: string, partial: boolean) => string) | undefined;
  lastSentAt: number;
  timer: NodeJS.Timeout | undefined;
}

/**
 * The task's UI messages (SPEC T4): every `say` and `ask` lands here, is sent to
 * the host, and, once final, appended to the task log. Partial updates of one
 * message are coalesced to at most one per `minIntervalMs`, and the final state
 * is never dropped.
 */
export class MessageState {
  readonly messages: UiMessage[] = [];
  private readonly entries = new Map<string, Entry>();
  private readonly openByKey = new Map<string, string>();
  /** Keys the last `finalizeOpen` closed: a late final say (an aborted command's output) lands on its message. */
  private closedByKey = new Map<string, string>();
  private counter = 0;
  private readonly idPrefix: string;

  constructor(
    private readonly options: {
      host: Host;
      log: TaskLog;
      now: () => number;
      minIntervalMs?: number;
      initialMessages?: UiMessage[];
    },
  ) {
    this.idPrefix = `m${options.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
    for (const message of options.initialMessages ?? []) {
      this.messages.push(message);
      this.entries.set(message.id, { message, raw: message.text, transform: undefined, lastSentAt: 0, timer: undefined });
    }
  }

  private nextId(): string {
    this.counter += 1;
    return `${this.idPrefix}-${this.counter}`;
  }

  say(type: SayType, text: string, options: SayOptions = {}): string {
    const partial = options.partial ?? false;
    const openId = options.key === undefined ? undefined : this.openByKey.get(options.key);
    const open = openId === undefined ? undefined : this.entries.get(openId);
    if (open && open.message.type === "say" && open.message.say === type) {
      this.update(open, text, partial, options.meta);
      if (!partial && options.key !== undefined) this.openByKey.delete(options.key);
      return open.message.id;
    }
    const closedId = options.key === undefined || partial ? undefined : this.closedByKey.get(options.key);
    const closed = closedId === undefined ? undefined : this.entries.get(closedId);
    if (closed && closed.message.type === "say" && closed.message.say === type) {
      // Issue #12: shown once; only real new text is sent again.
      this.closedByKey.delete(options.key!);
      const changed = closed.raw !== text;
      this.update(closed, text, false, options.meta, changed);
      return closed.message.id;
    }
    const message: SayMessage = { type: "say", say: type, id: this.nextId(), ts: this.options.now(), text, partial };
    if (options.meta) message.meta = options.meta;
    this.add(message, options.transform);
    if (partial && options.key !== undefined) this.openByKey.set(options.key, message.id);
    return message.id;
  }

  /** Creates a complete ask message (the caller then waits for the host's answer). */
  createAsk(type: AskType, text: string, meta?: Record<string, unknown>): AskMessage {
    const message: AskMessage = { type: "ask", ask: type, id: this.nextId(), ts: this.options.now(), text, partial: false };
    if (meta) message.meta = meta;
    this.add(message, undefined);
    return message;
  }

  /** Sends every pending partial update now. */
  flushAll(): void {
    for (const entry of this.entries.values()) {
      if (entry.timer) {
        clearTimeout(entry.timer);
        entry.timer = undefined;
        this.send(entry);
      }
    }
  }

  /** Finalises every message still partial (abort, stream end) so none stays open. */
  finalizeOpen(): void {
    this.closedByKey = new Map(this.openByKey);
    for (const [key, id] of this.openByKey) {
      const entry = this.entries.get(id);
      if (entry && entry.message.partial) this.update(entry, entry.raw, false, undefined);
      this.openByKey.delete(key);
    }
  }

  private add(message: UiMessage, transform: SayOptions["transform"]): void {
    const entry: Entry = { message, raw: message.text, transform, lastSentAt: 0, timer: undefined };
    if (transform) entry.message = { ...message, text: transform(message.text, message.partial) };
    this.entries.set(message.id, entry);
    this.messages.push(entry.message);
    // A final message is logged before anyone sees it: what the user saw survives a kill.
    if (!message.partial) this.options.log.append({ kind: "ui", message: { ...entry.message, text: this.render(entry) } });
    this.send(entry);
  }

  private update(entry: Entry, raw: string, partial: boolean, meta: Record<string, unknown> | undefined, notify = true): void {
    entry.raw = raw;
    const message = { ...entry.message, partial };
    if (meta) message.meta = { ...entry.message.meta, ...meta };
    entry.message = message;
    if (partial) {
      this.schedule(entry);
      return;
    }
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = undefined;
    this.options.log.append({ kind: "ui", message: { ...entry.message, text: this.render(entry) } });
    if (notify) this.send(entry);
    else {
      entry.message = { ...entry.message, text: this.render(entry) };
      this.replaceInList(entry.message);
    }
  }

  private schedule(entry: Entry): void {
    if (entry.timer) return;
    // Each update re-sends the whole message, so a long one is sent less often:
    // the cost per second stays flat however long the answer grows (P-perf-2).
    const base = this.options.minIntervalMs ?? 40;
    const interval = base === 0 ? 0 : Math.max(base, entry.raw.length / 10_000);
    const wait = entry.lastSentAt + interval - this.options.now();
    if (wait <= 0) {
      this.send(entry);
      return;
    }
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      this.send(entry);
    }, wait);
  }

  private render(entry: Entry): string {
    return entry.transform ? entry.transform(entry.raw, entry.message.partial) : entry.raw;
  }

  private send(entry: Entry): void {
    const text = this.render(entry);
    entry.message = { ...entry.message, text };
    entry.lastSentAt = this.options.now();
    this.replaceInList(entry.message);
    this.options.host.onMessage(entry.message);
  }

  private replaceInList(message: UiMessage): void {
    // Updates touch the newest messages, so search from the end.
    for (let index = this.messages.length - 1; index >= 0; index -= 1) {
      if (this.messages[index]?.id === message.id) {
        this.messages[index] = message;
        return;
      }
    }
  }
}
