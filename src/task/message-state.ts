import type { Host } from "./contracts/host.js";
import type { AskMessage, AskType, SayMessage, SayType, UiMessage } from "./contracts/messages.js";
import type { AskMeta, SayMeta, ToolEndMeta } from "./contracts/message-meta.js";
import type { TaskLog } from "./contracts/seams.js";

/** `meta` is typed by the kind of message (message-meta.ts): the writer declares its shape. */
export interface SayOptions<T extends SayType = SayType> {
  partial?: boolean;
  meta?: SayMeta<T>;
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
 *
 * Only messages still open (partial) are kept: a final message is in the log
 * and with the host, and keeping every one with its full text would make memory
 * grow with the task (#11 item 6). The count is all that is kept of them.
 */
export class MessageState {
  private count = 0;
  /** Messages still partial, by id. */
  private readonly entries = new Map<string, Entry>();
  /** Final keyed messages of the current round, so a tool's outcome can still amend its message. */
  private finalByKey = new Map<string, UiMessage>();
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
    this.count = options.initialMessages?.length ?? 0;
    this.initialMessages = options.initialMessages ?? [];
  }

  /** A resumed task's messages, for a host that shows them again; handed over once, then not kept. */
  private initialMessages: UiMessage[];

  takeInitialMessages(): UiMessage[] {
    const messages = this.initialMessages;
    this.initialMessages = [];
    return messages;
  }

  /** How many messages the task has (for checkpoint positions), final ones included. */
  get messageCount(): number {
    return this.count;
  }

  private nextId(): string {
    this.counter += 1;
    return `${this.idPrefix}-${this.counter}`;
  }

  say<T extends SayType>(type: T, text: string, sayOptions: SayOptions<T> = {}): string {
    const options = sayOptions as SayOptions & { meta?: Record<string, unknown> };
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
    if (options.key !== undefined) this.keyOfFinal.set(options.key, message.id);
    this.add(message, options.transform);
    if (partial && options.key !== undefined) this.openByKey.set(options.key, message.id);
    return message.id;
  }

  /** Creates a complete ask message (the caller then waits for the host's answer). */
  createAsk<T extends AskType>(type: T, text: string, meta?: AskMeta<T>): AskMessage {
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
    for (const id of this.closedByKey.values()) if (this.entries.get(id)?.message.partial === false) this.entries.delete(id);
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
    this.count += 1;
    // A final message is logged before anyone sees it: what the user saw survives a kill.
    if (!message.partial) this.options.log.append({ kind: "ui", message: { ...entry.message, text: this.render(entry) } });
    else this.entries.set(message.id, entry);
    this.send(entry);
    if (!message.partial) this.rememberFinal(entry.message);
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
    // A final message is dropped from memory, unless the last finalizeOpen closed it
    // and a late final say may still land on it (closedByKey).
    if (![...this.closedByKey.values()].includes(entry.message.id)) this.entries.delete(entry.message.id);
    if (notify) this.send(entry);
    else entry.message = { ...entry.message, text: this.render(entry) };
    this.rememberFinal(entry.message);
  }

  private rememberFinal(message: UiMessage): void {
    // Only tool cards can be amended (by their tool's outcome); nothing else is kept.
    if (message.type !== "say" || (message.say !== "tool" && message.say !== "command")) return;
    for (const [key, id] of this.keyOfFinal) {
      if (id === message.id) this.finalByKey.set(key, message);
    }
  }

  /** Keys of messages that became final this round (filled by `say`). */
  private readonly keyOfFinal = new Map<string, string>();

  /**
   * Adds `meta` to the message last said with `key` in this round (a tool's
   * card), re-sending and logging it: how a tool's failure, or a command's exit,
   * reaches every surface on its own message. Returns false when there is no such message.
   */
  amend(key: string, meta: ToolEndMeta): boolean {
    const openId = this.openByKey.get(key);
    const open = openId === undefined ? undefined : this.entries.get(openId);
    if (open) {
      this.update(open, open.raw, false, meta);
      this.openByKey.delete(key);
      return true;
    }
    const final = this.finalByKey.get(key);
    if (final === undefined) return false;
    const amended: UiMessage = { ...final, meta: { ...final.meta, ...meta } };
    this.finalByKey.set(key, amended);
    this.options.log.append({ kind: "ui", message: amended });
    this.options.host.onMessage(amended);
    return true;
  }

  /** A new round: the last round's messages can no longer be amended (memory stays flat). */
  forgetRound(): void {
    this.finalByKey = new Map();
    this.keyOfFinal.clear();
  }

  private schedule(entry: Entry): void {
    if (entry.timer) return;
    // Each update hands on the whole text (and the hosts copy it: flattening,
    // cleaning, deltas), so a long one is sent less often: 2 MB of text a second
    // at most, so the cost per second stays flat however long the answer grows
    // (P-perf-2). 40 ms up to 80 KB, 500 ms at 1 MB (#18).
    const base = this.options.minIntervalMs ?? 40;
    const interval = base === 0 ? 0 : Math.max(base, entry.raw.length / 2_000);
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
    this.options.host.onMessage(entry.message);
  }
}
