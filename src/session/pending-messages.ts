/**
 * Messages sent while a task works (the terminal UI's queue, the SDK's and
 * `cairn serve`'s `message`): each is expanded as soon as it comes (its MCP
 * references, the terminal's @mentions) and reaches the model, expanded, at
 * the next tool boundary. One whose expansion is not done yet waits for the
 * boundary after it, and those sent after it with it, so the order holds.
 */
interface Entry {
  typed: string;
  /** The text as the model gets it, once known. */
  expanded?: string;
  started: boolean;
}

export type MessageExpander = (text: string) => Promise<string>;

export class PendingMessages {
  readonly #entries: Entry[] = [];
  #expander: MessageExpander | undefined;

  /** `needsExpansion` says cheaply whether a text may hold anything to expand; the others go as typed. */
  constructor(
    private readonly needsExpansion: (text: string) => boolean,
    expander?: MessageExpander,
  ) {
    this.#expander = expander;
  }

  /** Sets what expands the messages (once the task's session exists); those waiting start now. */
  expandWith(expander: MessageExpander): void {
    this.#expander = expander;
    for (const entry of this.#entries) this.#start(entry);
  }

  push(text: string): void {
    const entry: Entry = this.needsExpansion(text) ? { typed: text, started: false } : { typed: text, expanded: text, started: true };
    this.#entries.push(entry);
    this.#start(entry);
  }

  #start(entry: Entry): void {
    const expander = this.#expander;
    if (entry.started || expander === undefined) return;
    entry.started = true;
    void expander(entry.typed)
      .catch(() => entry.typed)
      .then((text) => {
        entry.expanded = text;
      });
  }

  /** The messages ready for the model now, taken off the queue, in the order they came. */
  drain(): string[] {
    const ready = this.#entries.findIndex((entry) => entry.expanded === undefined);
    return this.#entries.splice(0, ready === -1 ? this.#entries.length : ready).map((entry) => entry.expanded!);
  }

  /** The messages as typed, taken off the queue (a new step starts with them and expands them itself). */
  takeTyped(): string[] {
    return this.#entries.splice(0).map((entry) => entry.typed);
  }

  get typed(): readonly string[] {
    return this.#entries.map((entry) => entry.typed);
  }

  /** The last one, taken back to edit. */
  withdraw(): string | undefined {
    return this.#entries.pop()?.typed;
  }
}
