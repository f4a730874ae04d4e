import { appendFile, mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { copiedTasks } from "./test-support/copied-tasks.js";
import { useTemporaryStore } from "./test-support/temporary.js";
import type { TaskSummary } from "./types.js";

const fixture = useTemporaryStore();

/** What the whole listing says, newest first, optionally of one workspace and by last change. */
async function wholeListing(options: { workspace?: string; order?: "updated" } = {}): Promise<TaskSummary[]> {
  const rows = (await fixture.store.list()).filter((row) => options.workspace === undefined || row.workspace === options.workspace).reverse();
  if (options.order === "updated") rows.sort((left, right) => right.updatedAt - left.updatedAt || right.createdAt - left.createdAt);
  return rows;
}

/** A task that ran after the index was compacted: a row appended at its start, another at its end. */
async function finishedTask(taskId: string, workspace: string, createdAt: number, status: "completed" | "failed" = "completed"): Promise<void> {
  const writer = await fixture.store.create({ taskId, task: `late task ${taskId}`, workspace, createdAt });
  writer.append({ kind: "status", status, tokensIn: 5, tokensOut: 6, cost: 0.5 });
  await writer.close();
}

describe("the newest tasks of a long history", () => {
  it("are the whole listing's newest rows, with how many tasks there are, after tasks ran and old ones were resumed", async () => {
    await copiedTasks(fixture.store, 400);
    await fixture.store.list();
    await finishedTask("late-1", "/w1", 10_000);
    await finishedTask("late-2", "/w2", 10_001, "failed");
    // An old task resumed and finished again: its newer row is appended after the sorted rows.
    const { writer } = await fixture.store.open("copy-00390");
    writer.append({ kind: "status", status: "failed", tokensIn: 9, tokensOut: 9, cost: 1 });
    await writer.close();

    const newest = await fixture.store.listNewest({ limit: 20 });
    expect(newest.total).toBe(402);
    expect(newest.rows.map((row) => row.taskId).slice(0, 3)).toEqual(["late-2", "late-1", "copy-00399"]);
    expect(newest.rows.find((row) => row.taskId === "copy-00390")?.status).toBe("failed");
    expect(newest.rows).toEqual((await wholeListing()).slice(0, 20));

    const picker = await fixture.store.listNewest({ limit: 5, workspace: "/w2", order: "updated" });
    const wholeW2 = await wholeListing({ workspace: "/w2", order: "updated" });
    expect(picker.rows).toEqual(wholeW2.slice(0, 5));
    expect(picker.rows.slice(0, 2).map((row) => row.taskId)).toEqual(["copy-00390", "late-2"]);
    expect(picker.total).toBe(wholeW2.length);
  });

  it("list a task whose folder has no row in the index, and leave out a task whose folder was deleted", async () => {
    await copiedTasks(fixture.store, 100);
    await fixture.store.list();
    const folder = fixture.store.taskDir("zz-no-row");
    await mkdir(folder);
    await writeFile(join(folder, "meta.json"), JSON.stringify({ taskId: "zz-no-row", task: "written by hand", workspace: "/w0", createdAt: 5_000 }));
    await rm(fixture.store.taskDir("copy-00099"), { recursive: true });

    const newest = await fixture.store.listNewest({ limit: 3 });
    expect(newest.rows.map((row) => row.taskId)).toEqual(["zz-no-row", "copy-00098", "copy-00097"]);
    expect(newest.total).toBe(100);
    expect(await fixture.store.listNewest({ limit: 3 })).toEqual(newest);
  });

  it("show a task killed while it ran as aborted, and say so in the index", async () => {
    await copiedTasks(fixture.store, 50);
    await fixture.store.list();
    const writer = await fixture.store.create({ taskId: "killed", task: "killed mid-way", workspace: "/w3", createdAt: 9_000 });
    writer.append({ kind: "status", status: "running", tokensIn: 1, tokensOut: 1, cost: 0 });
    expect((await fixture.store.listNewest({ limit: 1 })).rows[0]?.status).toBe("running");
    await writer.close(); // the lock goes, as if the process had died; the log still says running

    const newest = await fixture.store.listNewest({ limit: 1 });
    expect(newest.rows.map((row) => [row.taskId, row.status])).toEqual([["killed", "aborted"]]);
    expect((await wholeListing())[0]?.status).toBe("aborted");
  });

  it("keep titles in any script whole, wherever the index is read in pieces", async () => {
    // Rows of about 300 bytes, most of them three-byte characters: the 64 KB pieces end inside characters.
    for (let index = 0; index < 2_000; index += 100) {
      await Promise.all(
        Array.from({ length: 100 }, async (_, offset) => {
          const taskId = `t-${String(index + offset).padStart(5, "0")}`;
          await mkdir(fixture.store.taskDir(taskId), { recursive: true });
          const task = `${"東京の天気".repeat(14)} ${index + offset}`;
          await writeFile(join(fixture.store.taskDir(taskId), "meta.json"), JSON.stringify({ taskId, task, workspace: "/w", createdAt: index + offset }));
        }),
      );
    }
    const whole = await wholeListing();
    const newest = await fixture.store.listNewest({ limit: 2_000 });
    expect(newest.rows).toEqual(whole);
    expect(newest.rows.every((row) => !row.title.includes("\uFFFD"))).toBe(true);
  });

  it("read a damaged index whole and write it again", async () => {
    await copiedTasks(fixture.store, 60);
    await fixture.store.list();
    await appendFile(join(fixture.dataDir, "history.jsonl"), '\n{"taskId":"torn", "tit\n');
    const newest = await fixture.store.listNewest({ limit: 2 });
    expect(newest.rows.map((row) => row.taskId)).toEqual(["copy-00059", "copy-00058"]);
    expect(newest.total).toBe(60);
  });
});
