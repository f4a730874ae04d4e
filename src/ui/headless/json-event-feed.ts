/**
 * The `--json` events of one task as they are produced: each message's lines
 * (json-events.ts), final messages said once (again only when the Task amends
 * how a tool call ended), and partial updates too small for a line of their
 * own held back for a while so a slow stream costs about its text (#18).
 * `cairn run --json` writes the events as lines; the SDK hands them out as objects.
 */
import { cardMetaOf } from "../../task/contracts/message-meta.js";
import type { UiMessage } from "../../task/contracts/messages.js";
import { JsonEventWriter } from "./json-events.js";

/** A partial update that appends fewer than 512 characters waits at most a second for more. Final lines never wait. */
export const defaultDeltaHold = { chars: 512, ms: 1000 };

/** Final messages already shown, with how they ended: a repeat of one changes nothing. */
export class FinalMessages {
  readonly #shown = new Map<string, string>();

  /** Whether `message` repeats a final message already shown (records it when it is final). */
  isRepeat(message: UiMessage): boolean {
    const card = cardMetaOf(message);
    // How it ended: a failure, a command's end, an edit's new problems (#32).
    const ending = `${card?.status ?? ""}|${card?.end?.kind ?? ""}|${card?.diagnostics === undefined ? "" : JSON.stringify(card.diagnostics)}`;
    if (this.#shown.get(message.id) === ending) return true;
    if (!message.partial) this.#shown.set(message.id, ending);
    return false;
  }
}

export class JsonEventFeed {
  readonly #writer: JsonEventWriter;
  readonly #hold: { chars: number; ms: number };
  readonly #emit: (event: Record<string, unknown>) => void;
  readonly #finals = new FinalMessages();
  /** Partial updates held back, by message id: the latest state and the timer that sends it. */
  readonly #held = new Map<string, { message: UiMessage; timer: NodeJS.Timeout }>();

  constructor(options: { taskId: string; hold?: { chars: number; ms: number } | undefined; emit: (event: Record<string, unknown>) => void }) {
    this.#hold = options.hold ?? defaultDeltaHold;
    this.#writer = new JsonEventWriter({ taskId: options.taskId, minDeltaChars: this.#hold.chars });
    this.#emit = options.emit;
  }

  push(message: UiMessage): void {
    if (!this.#finals.isRepeat(message)) this.#send(message, false);
  }

  /** Sends every held update (the task is over). */
  flush(): void {
    for (const id of [...this.#held.keys()]) this.#flushHeld(id);
  }

  #send(message: UiMessage, force: boolean): void {
    const event = this.#writer.record(message, force);
    if (event !== undefined) this.#emit(event);
    const held = this.#held.get(message.id);
    if (!message.partial || event !== undefined || force) {
      if (held !== undefined) clearTimeout(held.timer);
      this.#held.delete(message.id);
      return;
    }
    if (held !== undefined) {
      held.message = message;
      return;
    }
    const entry = { message, timer: setTimeout(() => this.#flushHeld(message.id), this.#hold.ms) };
    entry.timer.unref();
    this.#held.set(message.id, entry);
  }

  #flushHeld(id: string): void {
    const held = this.#held.get(id);
    this.#held.delete(id);
    if (held !== undefined) this.#send(held.message, true);
  }
}
