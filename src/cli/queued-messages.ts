/** Messages typed while a step runs (the terminal UI): shown and editable as typed, delivered with their @mentions expanded. */
import { expandMentionsWithImages } from "./mentions.js";

export class QueuedMessages {
  readonly #typed: string[] = [];
  /** Queued messages with their @mentions expanded, filled in as soon as the expansion is done. */
  readonly #expanded = new Map<string, string>();

  constructor(private readonly workspace: () => string) {}

  /** Queued as typed; its @mentions are expanded meanwhile for delivery. */
  push(text: string): void {
    this.#typed.push(text);
    if (!text.includes("@")) return;
    void expandMentionsWithImages(text, { workspace: this.workspace() })
      .then((expanded) => {
        if (this.#typed.includes(text)) this.#expanded.set(text, expanded.text);
      })
      .catch(() => undefined);
  }

  /** The queued messages as the model gets them at the next tool boundary. */
  drain(): string[] {
    const drained = this.#typed.splice(0).map((text) => this.#expanded.get(text) ?? text);
    this.#expanded.clear();
    return drained;
  }

  /** The queued messages as typed, taken off the queue (a new step starts with them). */
  takeTyped(): string[] {
    this.#expanded.clear();
    return this.#typed.splice(0);
  }

  get typed(): readonly string[] {
    return this.#typed;
  }

  /** The last one, taken back to edit. */
  withdraw(): string | undefined {
    return this.#typed.pop();
  }
}
