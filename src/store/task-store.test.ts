import { appendFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskNotFoundError } from "./task-store.js";
import { say, useTemporaryStore } from "./test-support/temporary.js";

const fixture = useTemporaryStore();

describe("TaskStore log", () => {
  it("writes one JSON line per entry and reads back the final state of each message", async () => {
    const writer = await fixture.store.create({ taskId: "t1", task: "Fix the bug", workspace: "/work/x", createdAt: 5 });
    writer.append({ kind: "ui", message: say("a", "hel") });
    writer.append({ kind: "ui", message: say("b", "second") });
    writer.append({ kind: "ui", message: say("a", "hello") });
    writer.append({ kind: "api", message: { role: "user", content: [{ type: "text", text: "task" }] } });
    writer.append({ kind: "api", message: { role: "assistant", content: [{ type: "text", text: "one" }] } });
    writer.append({ kind: "api", message: { role: "user", content: [{ type: "text", text: "two" }] } });
    writer.append({ kind: "api_truncate", length: 2 });
    writer.append({ kind: "status", status: "completed", tokensIn: 10, tokensOut: 3, cost: 0.25 });
    await writer.close();

    const lines = (await readFile(join(fixture.dataDir, "tasks", "t1", "log.jsonl"), "utf8")).trimEnd().split("\n");
    expect(lines).toHaveLength(8);
    const loaded = await fixture.store.load("t1");
    expect(loaded.meta).toEqual({ taskId: "t1", task: "Fix the bug", workspace: "/work/x", createdAt: 5 });
    expect(loaded.uiMessages.map((message) => [message.id, message.text])).toEqual([
      ["a", "hello"],
      ["b", "second"],
    ]);
    expect(loaded.apiHistory.map((message) => message.content[0])).toEqual([
      { type: "text", text: "task" },
      { type: "text", text: "one" },
    ]);
    expect(loaded).toMatchObject({ status: "completed", tokensIn: 10, tokensOut: 3, cost: 0.25, warnings: [] });
  });

  it("P-perf-4: a message at turn 500 is one appended line; nothing written before is rewritten", async () => {
    const writer = await fixture.store.create({ taskId: "long", task: "t", workspace: "/w" });
    for (let turn = 0; turn < 500; turn += 1) writer.append({ kind: "ui", message: say(`m${turn}`, `message ${turn}`) });
    await writer.flush();
    const file = join(fixture.dataDir, "tasks", "long", "log.jsonl");
    const before = await readFile(file, "utf8");
    writer.append({ kind: "ui", message: say("m500", "message 500") });
    await writer.flush();
    const after = await readFile(file, "utf8");
    await writer.close();
    expect(after.startsWith(before)).toBe(true);
    expect(after.slice(before.length).trimEnd().split("\n")).toHaveLength(1);
  });

  it("drops a torn last line and reports it, then appends after it on a fresh line", async () => {
    const writer = await fixture.store.create({ taskId: "torn", task: "t", workspace: "/w" });
    writer.append({ kind: "ui", message: say("a", "kept") });
    await writer.close();
    const logPath = join(fixture.dataDir, "tasks", "torn", "log.jsonl");
    await appendFile(logPath, '{"kind":"ui","message":{"id":"b","te');

    const loaded = await fixture.store.load("torn");
    expect(loaded.uiMessages.map((message) => message.id)).toEqual(["a"]);
    expect(loaded.warnings).toHaveLength(1);
    expect(loaded.warnings[0]).toMatch(/last line of the log \(line 2\) was cut off mid-write/);

    const { writer: resumed } = await fixture.store.open("torn");
    resumed.append({ kind: "ui", message: say("c", "after the crash") });
    await resumed.close();
    const again = await fixture.store.load("torn");
    expect(again.uiMessages.map((message) => message.id)).toEqual(["a", "c"]);
    expect(again.warnings).toEqual(["line 2 of the log is damaged and was skipped"]);
  });

  it("skips a damaged line in the middle with a warning and keeps the rest", async () => {
    const writer = await fixture.store.create({ taskId: "mid", task: "t", workspace: "/w" });
    writer.append({ kind: "ui", message: say("a", "one") });
    await writer.flush();
    await appendFile(join(fixture.dataDir, "tasks", "mid", "log.jsonl"), 'not json at all\n{"kind":"nonsense"}\n');
    writer.append({ kind: "ui", message: say("b", "two") });
    await writer.close();
    const loaded = await fixture.store.load("mid");
    expect(loaded.uiMessages.map((message) => message.text)).toEqual(["one", "two"]);
    expect(loaded.warnings).toEqual(["line 2 of the log is damaged and was skipped", "line 3 of the log is damaged and was skipped"]);
  });

  it("open() continues the counts the writer reports as its position", async () => {
    const writer = await fixture.store.create({ taskId: "pos", task: "t", workspace: "/w" });
    writer.append({ kind: "ui", message: say("a", "1") });
    writer.append({ kind: "api", message: { role: "user", content: [] } });
    await writer.close();
    const { writer: resumed, loaded } = await fixture.store.open("pos");
    expect(loaded.status).toBe("running");
    expect(resumed.position()).toEqual({ apiHistoryLength: 1, uiMessageCount: 1 });
    resumed.append({ kind: "ui", message: say("a", "1 again") });
    resumed.append({ kind: "ui", message: say("b", "2") });
    expect(resumed.position()).toEqual({ apiHistoryLength: 1, uiMessageCount: 2 });
    await resumed.close();
  });

  it("truncateConversation cuts both histories back by appending, keeping the log append-only", async () => {
    const writer = await fixture.store.create({ taskId: "cut", task: "t", workspace: "/w" });
    for (const id of ["a", "b", "c"]) writer.append({ kind: "ui", message: say(id, id) });
    for (let index = 0; index < 4; index += 1) {
      writer.append({ kind: "api", message: { role: index % 2 === 0 ? "user" : "assistant", content: [] } });
    }
    await writer.close();
    const before = await readFile(join(fixture.dataDir, "tasks", "cut", "log.jsonl"), "utf8");
    await fixture.store.truncateConversation("cut", { apiHistoryLength: 2, uiMessageCount: 1 });
    const after = await readFile(join(fixture.dataDir, "tasks", "cut", "log.jsonl"), "utf8");
    expect(after.startsWith(before)).toBe(true);
    const loaded = await fixture.store.load("cut");
    expect(loaded.uiMessages.map((message) => message.id)).toEqual(["a"]);
    expect(loaded.apiHistory).toHaveLength(2);
  });

  it("refuses to create a task whose id already exists", async () => {
    const writer = await fixture.store.create({ taskId: "dup", task: "first", workspace: "/w" });
    await writer.close();
    await expect(fixture.store.create({ taskId: "dup", task: "second", workspace: "/w" })).rejects.toThrow(/task dup already exists/);
    expect((await fixture.store.load("dup")).meta.task).toBe("first");
  });

  it("refuses unknown and unsafe task ids with a message naming what to do", async () => {
    await expect(fixture.store.load("nope")).rejects.toThrow(TaskNotFoundError);
    await expect(fixture.store.load("nope")).rejects.toThrow(/cairn history/);
    await expect(fixture.store.load("../etc")).rejects.toThrow(/not a valid task id/);
  });

  it("resolves a task by its random tail or a unique prefix", async () => {
    const first = await fixture.store.create({ task: "one", workspace: "/w", createdAt: Date.UTC(2026, 10, 30, 11, 10, 0) });
    await first.close();
    const second = await fixture.store.create({ task: "two", workspace: "/w", createdAt: Date.UTC(2026, 10, 30, 12, 0, 0) });
    await second.close();
    expect(first.taskId).toMatch(/^2026-11-30T11-10-00-[a-z0-9]{6}$/);
    expect(await fixture.store.resolveTaskId(first.taskId.slice(-6))).toBe(first.taskId);
    expect(await fixture.store.resolveTaskId("2026-11-30T12")).toBe(second.taskId);
    await expect(fixture.store.resolveTaskId("2026-11-30")).rejects.toThrow(/matches 2 tasks/);
  });
});
