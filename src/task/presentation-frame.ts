import type { BlockList } from "./task-state.js";

/**
 * Issue 18: a growing block is presented at most once per frame (about 16 ms),
 * not on every delta; what the user sees is the same, since the messages sent
 * on are coalesced further anyway. A change of shape (a block added, a block
 * completed) is presented at once, so a finished tool call still runs the
 * moment its last delta arrives (SPEC P4).
 */
export class PresentationFrame {
  readonly #blocks: BlockList;
  readonly #present: () => void;
  readonly #frameMs: number;
  #length = 0;
  #lastPartial = false;
  #presentedAt = Number.NEGATIVE_INFINITY;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: { blocks: BlockList; present: () => void; frameMs: number }) {
    this.#blocks = options.blocks;
    this.#present = options.present;
    this.#frameMs = options.frameMs;
  }

  /** The blocks changed: present now, or once the current frame is over. */
  changed(): void {
    const length = this.#blocks.length;
    const lastPartial = this.#blocks.at(length - 1)?.partial === true;
    if (length !== this.#length || lastPartial !== this.#lastPartial || this.#frameMs <= 0) {
      this.#length = length;
      this.#lastPartial = lastPartial;
      this.#presentNow(performance.now());
      return;
    }
    if (this.#timer !== undefined) return;
    const now = performance.now();
    const waited = now - this.#presentedAt;
    if (waited >= this.#frameMs) this.#presentNow(now);
    else this.#timer = setTimeout(this.#onFrame, this.#frameMs - waited);
  }

  /** The stream is over: the Task presents the final state itself. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  readonly #onFrame = (): void => {
    this.#timer = undefined;
    this.#presentNow(performance.now());
  };

  #presentNow(now: number): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#presentedAt = now;
    this.#present();
  }
}
