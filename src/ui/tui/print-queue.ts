/**
 * The printed history written in order when its markdown is formatted elsewhere
 * (markdown-formatter.ts): each batch's text is written once it and every batch
 * before it are ready. A batch of an earlier screen width (the terminal was
 * resized: everything is printed again) is dropped. Once the UI has gone, what
 * is still on its way goes straight to the terminal, so nothing is lost at exit.
 */
import type { MarkdownFormatter } from "./markdown-formatter.js";

export class PrintQueue {
  readonly formatter: MarkdownFormatter;
  readonly #direct: (text: string) => void;
  #tail: Promise<void> = Promise.resolve();
  #gone = false;

  /** `direct` writes to the terminal itself, for what is printed after the UI went. */
  constructor(formatter: MarkdownFormatter, direct: (text: string) => void) {
    this.formatter = formatter;
    this.#direct = direct;
  }

  /** Writes `text` after everything enqueued before, if `current()` still says so then. */
  enqueue(text: Promise<string>, write: (text: string) => void, current: () => boolean): void {
    this.#tail = this.#tail
      .then(() => text)
      .then((ready) => {
        if (ready === "" || !current()) return;
        if (this.#gone) this.#direct(ready);
        else write(ready);
      });
  }

  /** Resolves once everything enqueued so far is written. */
  drained(): Promise<void> {
    return this.#tail;
  }

  /** The UI has gone: what is left is written to the terminal directly. */
  uiGone(): void {
    this.#gone = true;
  }
}
