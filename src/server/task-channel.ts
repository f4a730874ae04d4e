/**
 * Everything one task says to the clients that follow it. Log entries are
 * numbered by their place in the log (log-positions.ts); each client has its
 * own ordered pump that fills any gap between what it saw and the next entry
 * from the log itself, so a client that joins late, reconnects, or follows a
 * task across runs gets every entry exactly once, in order. Partial updates
 * are never replayed: after reading from the log, a client gets each message
 * still being written in its whole current state instead. A client that saw a
 * message being written gets its final state as what was appended since (a
 * `delta` with `partial: false`): a long answer crosses the wire about once.
 */
import type { StoreLogEntry } from "../store/types.js";
import type { UiMessage } from "../task/contracts/messages.js";
import { durableFrame, finalDeltaFrame, snapshotFrame, transientFrame } from "./event-frames.js";
import { readLogAfter } from "./log-positions.js";

/** `live`: the entry's frame for a client that has followed the message it ends (see `Subscriber`). */
type ChannelEvent = { kind: "entry"; seq: number; frame: string | undefined; live?: string } | { kind: "transient"; frame: string; partial: boolean } | { kind: "sync" };

/** Where a client's frames go; `close` ends its stream. */
export interface FrameSink {
  write(frame: string): void;
  close(): void;
}

export interface TaskChannelOptions {
  taskId: string;
  logPath: string;
  /** The state event sent first on every connection and when the task's state changes. */
  state: () => object;
}

export class TaskChannel {
  readonly taskId: string;
  readonly #logPath: string;
  readonly #state: () => object;
  readonly #subscribers = new Set<Subscriber>();
  /** Messages still being written, by id: the latest state, and the text and meta every live client holds of it. */
  readonly #open = new Map<string, OpenMessage>();
  /** Entries in the log so far, as counted while a run writes it (undefined: no run has written since this server started). */
  #written: number | undefined;

  constructor(options: TaskChannelOptions) {
    this.taskId = options.taskId;
    this.#logPath = options.logPath;
    this.#state = options.state;
  }

  get subscriberCount(): number {
    return this.#subscribers.size;
  }

  /** A run starts writing the log, which holds `count` entries now. */
  startRun(count: number): void {
    this.#written = count;
    this.#open.clear();
  }

  /** An entry was appended to the log. */
  entryWritten(entry: StoreLogEntry): void {
    const seq = (this.#written ?? 0) + 1;
    this.#written = seq;
    let live: string | undefined;
    if (entry.kind === "ui") {
      const open = this.#open.get(entry.message.id);
      if (open !== undefined) live = finalDeltaFrame(entry.message, open, seq, this.taskId);
      this.#open.delete(entry.message.id);
    }
    this.#publish({ kind: "entry", seq, frame: durableFrame(entry, seq, this.taskId), ...(live === undefined ? {} : { live }) });
  }

  /** A partial update of a message (a whole snapshot or a delta, as `--json` writes it). */
  partialUpdate(message: UiMessage, event: object): void {
    const update = event as { text?: unknown; delta?: unknown; meta?: Record<string, unknown> };
    const known = this.#open.get(message.id);
    if (typeof update.text === "string") this.#open.set(message.id, { message, text: update.text, meta: update.meta });
    else if (known !== undefined && typeof update.delta === "string") {
      known.message = message;
      known.text += update.delta;
      if (update.meta !== undefined) known.meta = update.meta;
    } else return;
    this.#publish({ kind: "transient", frame: transientFrame(event), partial: true });
  }

  /** Something clients see that the log does not keep (an answer, a notice, the result). */
  say(event: object): void {
    this.#publish({ kind: "transient", frame: transientFrame(event), partial: false });
  }

  /** The task's state changed (running, its open ask). */
  stateChanged(): void {
    this.say(this.#state());
  }

  /** The run ended: nothing is being written any more. */
  endRun(): void {
    this.#open.clear();
    this.stateChanged();
  }

  /** Follows the task from after entry `after` (0: from its start). Returns the unsubscribe function. */
  subscribe(after: number, sink: FrameSink): () => void {
    const subscriber = new Subscriber(after, sink, {
      readAfter: (seq) => readLogAfter(this.#logPath, seq),
      taskId: this.taskId,
      resync: () => [transientFrame(this.#state()), ...[...this.#open.values()].map((open) => snapshotFrame(heldState(open), this.taskId))],
    });
    this.#subscribers.add(subscriber);
    subscriber.push({ kind: "sync" });
    return () => {
      this.#subscribers.delete(subscriber);
      subscriber.stop();
    };
  }

  /** The log was written outside a run (a restore): every client reads what it has not seen. */
  resync(): void {
    this.#publish({ kind: "sync" });
  }

  /** Ends every client's stream (the server stops). */
  closeAll(): void {
    for (const subscriber of this.#subscribers) subscriber.stop();
    this.#subscribers.clear();
  }

  #publish(event: ChannelEvent): void {
    for (const subscriber of this.#subscribers) subscriber.push(event);
  }
}

/** A message being written: its latest state, and the text and meta its events have given every live client. */
export interface OpenMessage {
  message: UiMessage;
  text: string;
  meta: Record<string, unknown> | undefined;
}

/** The message as live clients hold it. */
function heldState(open: OpenMessage): UiMessage {
  const { meta: _latest, ...rest } = open.message;
  return { ...rest, text: open.text, ...(open.meta === undefined ? {} : { meta: open.meta }) };
}

interface SubscriberSource {
  readAfter(seq: number): ReturnType<typeof readLogAfter>;
  taskId: string;
  /** The frames that bring a client up to now after a read from the log: the state, then each open message whole. */
  resync(): string[];
}

/**
 * One client: its events in order, with gaps filled from the log before anything after them. A client
 * reading its events in order holds every open message as the channel does (it got each one's snapshot, then
 * every update), so an entry's `live` frame suits it; entries taken while it catches up come whole.
 */
class Subscriber {
  readonly #queue: ChannelEvent[] = [];
  #pumping = false;
  #stopped = false;

  constructor(
    private last: number,
    private readonly sink: FrameSink,
    private readonly source: SubscriberSource,
  ) {}

  push(event: ChannelEvent): void {
    if (this.#stopped) return;
    this.#queue.push(event);
    if (!this.#pumping) void this.#pump();
  }

  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#queue.length = 0;
    this.sink.close();
  }

  async #pump(): Promise<void> {
    this.#pumping = true;
    try {
      while (!this.#stopped && this.#queue.length > 0) {
        const event = this.#queue.shift()!;
        if (event.kind === "transient") this.sink.write(event.frame);
        else if (event.kind === "sync") await this.#catchUp();
        else if (event.seq <= this.last) continue;
        else if (event.seq > this.last + 1) await this.#catchUp();
        else this.#deliver(event.seq, event.live ?? event.frame);
      }
    } catch (error) {
      this.sink.write(transientFrame({ v: 2, type: "error", message: `could not read the task's log: ${error instanceof Error ? error.message : String(error)}` }));
      this.stop();
    } finally {
      this.#pumping = false;
    }
  }

  /**
   * Reads the log to its end (what it holds is at least everything published), then brings the client to the present: what was
   * queued meanwhile follows in order, except partial updates, which are older than the snapshot of
   * each open message that replaces them.
   */
  async #catchUp(): Promise<void> {
    const { entries } = await this.source.readAfter(this.last);
    for (const { seq, entry } of entries) {
      if (this.#stopped) break;
      this.#deliver(seq, durableFrame(entry, seq, this.source.taskId));
    }
    if (this.#stopped) return;
    for (const queued of this.#queue.splice(0)) {
      if (queued.kind === "entry" && queued.seq > this.last) this.#deliver(queued.seq, queued.frame);
      else if (queued.kind === "transient" && !queued.partial) this.sink.write(queued.frame);
    }
    for (const frame of this.source.resync()) this.sink.write(frame);
  }

  #deliver(seq: number, frame: string | undefined): void {
    this.last = seq;
    if (frame !== undefined) this.sink.write(frame);
  }
}
