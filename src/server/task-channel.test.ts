/**
 * The channel's promises, on a real log file: a client that joins while a
 * message is being written starts from its whole current state and the deltas
 * after it add up to the final text; a client behind the log gets the entries
 * it missed, in order, once each.
 */
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { temporaryFolder } from "../test-support/temporary-folder.js";
import type { UiMessage } from "../task/contracts/messages.js";
import type { TaskLogEntry } from "../task/contracts/seams.js";
import { JsonEventReader } from "../ui/headless/json-events-reader.js";
import { JsonEventWriter } from "../ui/headless/json-events.js";
import { TaskChannel, type FrameSink } from "./task-channel.js";

let folder: { path: string; remove(): Promise<void> };
let logPath: string;
beforeEach(async () => {
  folder = await temporaryFolder("cairn-channel-");
  logPath = join(folder.path, "log.jsonl");
  appendFileSync(logPath, "");
});
afterEach(() => folder.remove());

/** A client: the frames it got, parsed, and its messages folded as a web page folds them. */
function client(): FrameSink & { ids: number[]; reader: JsonEventReader; folded: Map<string, string>; durable: Array<Record<string, unknown>> } {
  const reader = new JsonEventReader();
  const folded = new Map<string, string>();
  const ids: number[] = [];
  const durable: Array<Record<string, unknown>> = [];
  return {
    ids,
    reader,
    folded,
    durable,
    write(frame) {
      const id = /^id: (\d+)$/m.exec(frame)?.[1];
      const data = JSON.parse(/^data: (.*)$/m.exec(frame)![1]!) as Record<string, unknown>;
      if (id !== undefined) {
        ids.push(Number(id));
        durable.push(data);
      }
      if (data["type"] !== "say" && data["type"] !== "ask") return;
      const message = reader.push(data);
      if (message !== undefined) folded.set(message.id, message.text);
    },
    close() {},
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

function say(id: string, text: string, partial: boolean): UiMessage {
  return { type: "say", say: "text", id, text, partial, ts: 1 };
}

/** What a run does: the entry goes to the log first, then to the channel. */
function write(channel: TaskChannel, entry: TaskLogEntry): void {
  appendFileSync(logPath, `${JSON.stringify(entry)}\n`);
  channel.entryWritten(entry);
}

describe("TaskChannel", () => {
  it("a client that joins mid-message gets its whole text so far, then deltas that add up to the final text", async () => {
    const channel = new TaskChannel({ taskId: "t", logPath, state: () => ({ v: 2, type: "state" }) });
    channel.startRun(0);
    const writer = new JsonEventWriter({ taskId: "t" });
    const early = client();
    channel.subscribe(0, early);
    await settle();
    const grow = (text: string): void => {
      const message = say("m", text, true);
      channel.partialUpdate(message, writer.record(message)!);
    };
    grow("Hello");
    grow("Hello, wor");
    await settle();
    const late = client();
    channel.subscribe(0, late);
    await settle();
    expect(late.folded.get("m")).toBe("Hello, wor");
    grow("Hello, world, and more");
    await settle();
    expect(late.folded.get("m")).toBe("Hello, world, and more");
    expect(early.folded.get("m")).toBe("Hello, world, and more");
    write(channel, { kind: "ui", message: say("m", "Hello, world, and more.", false) });
    await settle();
    expect(late.folded.get("m")).toBe("Hello, world, and more.");
    expect(late.ids).toEqual([1]);
  });

  it("a client that followed a message gets its final state as what was appended; one reading the log gets it whole", async () => {
    const channel = new TaskChannel({ taskId: "t", logPath, state: () => ({ v: 2, type: "state" }) });
    channel.startRun(0);
    const writer = new JsonEventWriter({ taskId: "t" });
    const follower = client();
    channel.subscribe(0, follower);
    await settle();
    const long = "x".repeat(100_000);
    const grow = (message: UiMessage): void => channel.partialUpdate(message, writer.record(message)!);
    grow({ ...say("m", long, true), meta: { tool: "write_to_file", content: long } });
    grow({ ...say("m", `${long} and`, true), meta: { tool: "write_to_file", content: long } });
    grow({ ...say("r", "first draft", true) });
    await settle();
    write(channel, { kind: "ui", message: { ...say("m", `${long} and the end.`, false), meta: { tool: "write_to_file", content: long } } });
    // Redacted on its way to the log: the final text does not extend what was streamed.
    write(channel, { kind: "ui", message: say("r", "first [redacted]", false) });
    await settle();
    const [final, rewritten] = follower.durable;
    expect(final).toMatchObject({ id: "m", delta: " the end.", partial: false, seq: 1 });
    expect(final).not.toHaveProperty("text");
    expect(final).not.toHaveProperty("meta");
    expect(rewritten).toMatchObject({ id: "r", text: "first [redacted]", partial: false, seq: 2 });
    expect(follower.reader.messages.get("m")).toMatchObject({ text: `${long} and the end.`, partial: false, meta: { content: long } });
    expect(follower.folded.get("r")).toBe("first [redacted]");

    const replay = client();
    channel.subscribe(0, replay);
    await settle();
    expect(replay.durable[0]).toMatchObject({ id: "m", text: `${long} and the end.`, partial: false });
    expect(replay.folded.get("m")).toBe(follower.folded.get("m"));
  });

  it("a client behind the log gets the entries it missed from the file, in order, once each, before what follows", async () => {
    const channel = new TaskChannel({ taskId: "t", logPath, state: () => ({ v: 2, type: "state" }) });
    // Three entries written before this server knew the task (another process, or before a restart).
    for (const index of [1, 2, 3]) appendFileSync(logPath, `${JSON.stringify({ kind: "ui", message: say(`m${index}`, `text ${index}`, false) })}\n`);
    const follower = client();
    channel.subscribe(1, follower);
    await settle();
    expect(follower.ids).toEqual([2, 3]);
    // A run starts on the same log (a resume): its entries continue the numbering.
    channel.startRun(3);
    write(channel, { kind: "api", message: { role: "user", content: [{ type: "text", text: "hidden" }] } });
    write(channel, { kind: "ui", message: say("m5", "text 5", false) });
    // A restore appended by another writer: the clients read it from the log.
    appendFileSync(logPath, `${JSON.stringify({ kind: "ui_truncate", count: 2 })}\n`);
    channel.resync();
    await settle();
    expect(follower.ids).toEqual([2, 3, 5, 6]);
    expect([...follower.folded.keys()]).toEqual(["m2", "m3", "m5"]);
  });
});
