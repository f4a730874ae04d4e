import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskStore } from "../store/task-store.js";
import type { TaskLogWriter } from "../store/log-writer.js";
import type { UiMessage } from "../task/contracts/messages.js";
import { conversationCutFor } from "./conversation-cut.js";
import { createCheckpointGate } from "./gate.js";
import { restoreCheckpoint, restoreOpenTask } from "./restore.js";
import { CheckpointTracker } from "./tracker.js";
import { readText, useCheckpointFolders, writeFiles } from "./test-support/workspace.js";

const folders = useCheckpointFolders();

const say = (id: string, text: string, meta?: Record<string, unknown>): UiMessage => ({
  id,
  ts: 1,
  type: "say",
  say: meta === undefined ? "text" : "checkpoint_created",
  text,
  partial: false,
  ...(meta === undefined ? {} : { meta }),
});

/** A two-turn task the way the Task would log it, with a checkpoint after each turn. */
async function scriptedTask(): Promise<{ taskId: string; hashes: string[] }> {
  const store = new TaskStore({ dataDir: folders.dataDir });
  const writer: TaskLogWriter = await store.create({ task: "edit a.txt", workspace: folders.workspace });
  const tracker = new CheckpointTracker({ workspace: folders.workspace, dataDir: folders.dataDir });
  const hashes: string[] = [];
  const gate = createCheckpointGate({
    tracker,
    taskId: writer.taskId,
    position: () => writer.position(),
    onCreated: (hash) => {
      hashes.push(hash);
      writer.append({ kind: "ui", message: say(`checkpoint-${hash}`, "checkpoint", { hash }) });
    },
    onWarning: (text) => {
      throw new Error(text);
    },
  });
  await writeFiles(folders.workspace, { "a.txt": "start" });
  writer.append({ kind: "ui", message: say("task", "edit a.txt") });
  gate.startInitial();
  await gate.waitInitial();
  writer.append({ kind: "api", message: { role: "user", content: [{ type: "text", text: "edit a.txt" }] } });
  for (const turn of ["one", "two"]) {
    writer.append({ kind: "api", message: { role: "assistant", content: [{ type: "text", text: `writing ${turn}` }] } });
    writer.append({ kind: "ui", message: say(`say-${turn}`, `writing ${turn}`) });
    await writeFiles(folders.workspace, { "a.txt": turn, [`${turn}.txt`]: turn });
    writer.append({ kind: "api", message: { role: "user", content: [{ type: "text", text: `result ${turn}` }] } });
    // As after a command: the files may have changed anywhere.
    gate.noteChanges(undefined);
    await gate.commit("turn");
  }
  await writer.close();
  return { taskId: writer.taskId, hashes };
}

describe("restoreCheckpoint", () => {
  it("--files puts the workspace back and leaves the conversation alone", async () => {
    const { taskId, hashes } = await scriptedTask();
    const outcome = await restoreCheckpoint({ dataDir: folders.dataDir, taskId, checkpoint: hashes[1]!.slice(0, 8), mode: "files" });
    expect(outcome.files?.restored).toEqual(["a.txt"]);
    expect(outcome.files?.removed).toEqual(["two.txt"]);
    expect(await readText(join(folders.workspace, "a.txt"))).toBe("one");
    expect(await readText(join(folders.workspace, "one.txt"))).toBe("one");
    const loaded = await new TaskStore({ dataDir: folders.dataDir }).load(taskId);
    expect(loaded.apiHistory).toHaveLength(5);
    expect(loaded.uiMessages).toHaveLength(6);
  });

  it("--task cuts the conversation back to the checkpoint and leaves the files alone", async () => {
    const { taskId, hashes } = await scriptedTask();
    const outcome = await restoreCheckpoint({ dataDir: folders.dataDir, taskId, checkpoint: hashes[1]!, mode: "task" });
    expect(outcome.files).toBeUndefined();
    const loaded = await new TaskStore({ dataDir: folders.dataDir }).load(taskId);
    expect(loaded.uiMessages.map((message) => message.id)).toEqual(["task", `checkpoint-${hashes[0]}`, "say-one", `checkpoint-${hashes[1]}`]);
    expect(loaded.apiHistory.map((message) => (message.content[0] as { text: string }).text)).toEqual(["edit a.txt", "writing one", "result one"]);
    expect(await readText(join(folders.workspace, "a.txt"))).toBe("two");
  });

  it("--both restores files and conversation to the initial checkpoint", async () => {
    const { taskId, hashes } = await scriptedTask();
    await restoreCheckpoint({ dataDir: folders.dataDir, taskId, checkpoint: hashes[0]!, mode: "both" });
    const loaded = await new TaskStore({ dataDir: folders.dataDir }).load(taskId);
    expect(loaded.uiMessages.map((message) => message.id)).toEqual(["task", `checkpoint-${hashes[0]}`]);
    expect(loaded.apiHistory).toEqual([]);
    expect(await readText(join(folders.workspace, "a.txt"))).toBe("start");
    expect(await readText(join(folders.workspace, "one.txt"))).toBeUndefined();
  });

  it("refuses a restore while the task is open in a writer, and names unknown checkpoints", async () => {
    const { taskId } = await scriptedTask();
    const store = new TaskStore({ dataDir: folders.dataDir });
    const { writer } = await store.open(taskId);
    await expect(restoreCheckpoint({ dataDir: folders.dataDir, taskId, checkpoint: "abcd", mode: "both" })).rejects.toThrow(/is open in another cairn process/);
    await writer.close();
    await expect(restoreCheckpoint({ dataDir: folders.dataDir, taskId, checkpoint: "abcd", mode: "both" })).rejects.toThrow(`task ${taskId} has no checkpoint "abcd"`);
  });
});

describe("restoreOpenTask", () => {
  it("restores a task this process holds open, and the writer goes on from the cut", async () => {
    const { taskId, hashes } = await scriptedTask();
    const store = new TaskStore({ dataDir: folders.dataDir });
    const { writer, loaded } = await store.open(taskId);
    const outcome = await restoreOpenTask({ writer, loaded, dataDir: folders.dataDir, checkpoint: hashes[1]!, mode: "both" });
    expect(outcome.conversation).toEqual({ apiHistoryLength: 3, uiMessageCount: 4 });
    expect(writer.position()).toEqual({ apiHistoryLength: 3, uiMessageCount: 4 });
    writer.append({ kind: "ui", message: say("after", "after the restore") });
    await writer.close();
    const reloaded = await store.load(taskId);
    expect(reloaded.uiMessages.map((message) => message.id).slice(-2)).toEqual([`checkpoint-${hashes[1]}`, "after"]);
    expect(await readText(join(folders.workspace, "a.txt"))).toBe("one");
  });
});

describe("conversationCutFor", () => {
  it("falls back to the recorded UI count when the checkpoint message is not in the log, and clamps", () => {
    const loaded = {
      meta: { taskId: "t", task: "x", workspace: "/w", createdAt: 0 },
      uiMessages: [say("a", "a"), say("b", "b")],
      apiHistory: [{ role: "user" as const, content: [] }],
      status: "running" as const,
      tokensIn: 0,
      tokensOut: 0,
      cost: 0,
      warnings: [],
      updatedAt: 0,
    };
    const checkpoint = { hash: "f".repeat(40), createdAt: 0, taskId: "t", reason: "turn" as const };
    expect(conversationCutFor(loaded, { ...checkpoint, apiHistoryLength: 5, uiMessageCount: 1 })).toEqual({
      apiHistoryLength: 1,
      uiMessageCount: 1,
    });
    expect(() => conversationCutFor(loaded, checkpoint)).toThrow(/restore the files only \(--files\)/);
  });
});
