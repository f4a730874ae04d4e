/**
 * Lines from standard input, read only while an ask waits: a paused stdin does
 * not keep the process alive, and answers typed ahead are kept for the next ask.
 */
import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";

interface Referable {
  ref(): void;
  unref(): void;
}

/**
 * Pausing alone keeps a pipe's handle alive, and the process would wait for the
 * other side to close it; unref lets the process end while nobody is asked.
 */
function release(input: Readable): void {
  input.pause();
  (input as Partial<Referable>).unref?.();
}

export class LineReader {
  readonly #input: Readable | undefined;
  readonly #onChange: () => void;
  readonly #decoder = new StringDecoder("utf8");
  readonly #lines: string[] = [];
  #partial = "";
  #listening = false;
  #ended: boolean;

  /** `onChange` runs when lines arrive or the input ends. */
  constructor(input: Readable | undefined, onChange: () => void) {
    this.#input = input;
    this.#onChange = onChange;
    this.#ended = input === undefined || input.readableEnded || input.destroyed;
  }

  /** True once the input has ended and every line was taken. */
  get exhausted(): boolean {
    return this.#ended && this.#lines.length === 0;
  }

  get ended(): boolean {
    return this.#ended;
  }

  next(): string | undefined {
    return this.#lines.shift();
  }

  /** Starts or stops reading. */
  want(reading: boolean): void {
    const input = this.#input;
    if (input === undefined || this.#ended) return;
    if (!reading) {
      if (this.#listening) release(input);
      return;
    }
    if (!this.#listening) {
      this.#listening = true;
      input.on("data", this.#onData);
      input.once("end", this.#onEnd);
      input.once("close", this.#onEnd);
      input.once("error", this.#onEnd);
    }
    (input as Partial<Referable>).ref?.();
    input.resume();
  }

  /** Stops listening for good (the task is over). */
  dispose(): void {
    const input = this.#input;
    if (input === undefined || !this.#listening) return;
    input.off("data", this.#onData);
    input.off("end", this.#onEnd);
    input.off("close", this.#onEnd);
    input.off("error", this.#onEnd);
    release(input);
    this.#listening = false;
  }

  readonly #onData = (chunk: Buffer | string): void => {
    const text = this.#partial + (typeof chunk === "string" ? chunk : this.#decoder.write(chunk));
    const pieces = text.split(/\r?\n/);
    this.#partial = pieces.pop() ?? "";
    if (pieces.length === 0) return;
    this.#lines.push(...pieces);
    this.#onChange();
  };

  readonly #onEnd = (): void => {
    if (this.#ended) return;
    this.#ended = true;
    const rest = this.#partial + this.#decoder.end();
    this.#partial = "";
    if (rest.trim() !== "") this.#lines.push(rest);
    this.#onChange();
  };
}
