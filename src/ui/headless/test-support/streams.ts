import { PassThrough, Writable } from "node:stream";
import type { AskMessage, AskType, SayMessage, SayType } from "../../../task/contracts/messages.js";

/** A Writable that keeps everything written to it. */
export class CapturedOutput extends Writable {
  text = "";

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    this.text += String(chunk);
    callback();
  }

  lines(): string[] {
    return this.text.split("\n").filter((line) => line !== "");
  }
}

export function createStreams(): { stdout: CapturedOutput; stderr: CapturedOutput; stdin: PassThrough } {
  return { stdout: new CapturedOutput(), stderr: new CapturedOutput(), stdin: new PassThrough() };
}

let counter = 0;

export function say(kind: SayType, text: string, extra: Partial<SayMessage> = {}): SayMessage {
  counter += 1;
  return { type: "say", say: kind, id: `m${counter}`, ts: 1_700_000_000_000 + counter, text, partial: false, ...extra };
}

export function ask(kind: AskType, text: string, extra: Partial<AskMessage> = {}): AskMessage {
  counter += 1;
  return { type: "ask", ask: kind, id: `a${counter}`, ts: 1_700_000_000_000 + counter, text, partial: false, ...extra };
}

/** Lets stream events already queued run (data written to a PassThrough is delivered asynchronously). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
