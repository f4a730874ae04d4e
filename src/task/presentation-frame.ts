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
  /** A frame is running: changes wait for its end. */
  #timer: NodeJS.Timeout | undefined;
  /** Something changed during the running frame. */
  #dirty = false;

  constructor(options: { blocks: BlockList; present: () => void; frameMs: number }) {
    this.#blocks = options.blocks;
    this.#present = options.present;
    this.#frameMs = options.frameMs;
  }

  /**
   * The blocks changed: present now, or at the end of the running frame (no clock is read per delta).
   * `shapeMayChange` false: the change only made the last block longer, so its count and completeness
   * are not read (reading the blocks brings the stream assembler's lazy blocks up to date).
   */
  changed(shapeMayChange = true): void {
    if (!shapeMayChange && this.#timer !== undefined) {
      this.#dirty = true;
      return;
    }
    const length = this.#blocks.length;
    const lastPartial = this.#blocks.at(length - 1)?.partial === true;
    if (length !== this.#length || lastPartial !== this.#lastPartial) {
      this.#length = length;
      this.#lastPartial = lastPartial;
      this.#presentNow();
      return;
    }
    if (this.#timer !== undefined) this.#dirty = true;
    else this.#presentNow();
  }

  /** The stream is over: the Task presents the final state itself. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#dirty = false;
  }

  readonly #onFrame = (): void => {
    this.#timer = undefined;
    if (this.#dirty) this.#presentNow();
  };

  /** Presents, and starts a frame during which further growth only marks the blocks dirty. */
  #presentNow(): void {
    this.#dirty = false;
    this.#present();
    if (this.#frameMs > 0) this.#timer ??= setTimeout(this.#onFrame, this.#frameMs);
  }
}
