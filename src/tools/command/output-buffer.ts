/**
 * Keeps a command's output in bounded memory: all of it while it is small;
 * once it outgrows the cap, only the first and last parts for the model,
 * with everything streamed to a file.
 */
import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import { dirname } from "node:path";

export class OutputBuffer {
  private head = "";
  private tail = "";
  private total = 0;
  private memory: string[] = [];
  private file: WriteStream | undefined;

  constructor(private readonly options: { headCharacters: number; tailCharacters: number; filePath: string }) {}

  /** Returns false when the file wants the producer to wait for `drain`. */
  append(text: string): boolean {
    if (text === "") return true;
    this.total += text.length;
    if (this.head.length < this.options.headCharacters) {
      this.head += text.slice(0, this.options.headCharacters - this.head.length);
    }
    this.tail = (this.tail.length + text.length > this.options.tailCharacters ? this.tail.slice(-this.options.tailCharacters) : this.tail) + text;
    if (this.tail.length > this.options.tailCharacters) this.tail = this.tail.slice(-this.options.tailCharacters);
    if (this.file !== undefined) return this.file.write(text);
    this.memory.push(text);
    if (this.total <= this.options.headCharacters + this.options.tailCharacters) return true;
    mkdirSync(dirname(this.options.filePath), { recursive: true });
    this.file = createWriteStream(this.options.filePath);
    const written = this.file.write(this.memory.join(""));
    this.memory = [];
    return written;
  }

  get length(): number {
    return this.total;
  }

  /** The path of the file holding the full output, once there is one. */
  get savedPath(): string | undefined {
    return this.file === undefined ? undefined : this.options.filePath;
  }

  onDrain(callback: () => void): void {
    if (this.file === undefined || !this.file.writableNeedDrain) callback();
    else this.file.once("drain", callback);
  }

  /** What the model sees: everything, or the head, a note, and the tail. */
  preview(): string {
    if (this.file === undefined) return this.memory.join("");
    const omitted = this.total - this.head.length - this.tail.length;
    return `${this.head}\n\n[... ${omitted} characters omitted ...]\n\n${this.tail}`;
  }

  async close(): Promise<void> {
    const file = this.file;
    if (file === undefined) return;
    await new Promise<void>((resolve) => file.end(resolve));
  }
}
