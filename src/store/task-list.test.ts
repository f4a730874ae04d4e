import { spawn } from "node:child_process";
import { readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { compactJournal } from "./history-journal.js";
import { copiedTasks, removeEveryLog } from "./test-support/copied-tasks.js";
import { finishTasks } from "./test-support/finishing-tasks.js";
import { useTemporaryStore } from "./test-support/temporary.js";
import type { TaskSummary } from "./types.js";

const fixture = useTemporaryStore();
const journal = () => join(fixture.dataDir, "history.jsonl");

async function makeTasks(): Promise<void> {
  const first = await fixture.store.create({ taskId: "2026-01-01T00-00-00-aaaaaa", task: "Add a login page   with a form", workspace: "/w1", createdAt: 1 });
  first.append({ kind: "status", status: "completed", tokensIn: 100, tokensOut: 20, cost: 0.5 });
  await first.close();
  const second = await fixture.store.create({ taskId: "2026-01-02T00-00-00-bbbbbb", task: "x ".repeat(100), workspace: "/w2", createdAt: 2 });
  second.append({ kind: "status", status: "failed", tokensIn: 7, tokensOut: 1, cost: 0.01 });
  await second.close();
}

/** The rows the journal on disk says, the newest of each task. */
async function journalRows(): Promise<Map<string, TaskSummary>> {
  const rows = new Map<string, TaskSummary>();
  for (const line of (await readFile(journal(), "utf8")).split("\n")) {
    if (line === "") continue;
    const row = JSON.parse(line) as TaskSummary;
    if ((rows.get(row.taskId)?.updatedAt ?? -1) <= row.updatedAt) rows.set(row.taskId, row);
  }
  return rows;
}

function childScript(): string {
  return fileURLToPath(new URL("./test-support/finishing-tasks-child.ts", import.meta.url));
}

function runChild(prefix: string, count: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", childScript(), fixture.dataDir, prefix, String(count)], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.resume();
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`child ${prefix} failed: ${stderr}`))));
  });
}

describe("the history index", () => {
  it("lists tasks with status, tokens and cost, and keeps each task's row in the index file", async () => {
    await makeTasks();
    const rows = await fixture.store.list();
    expect(rows.map((row) => [row.taskId, row.status, row.tokensIn, row.cost, row.workspace])).toEqual([
      ["2026-01-01T00-00-00-aaaaaa", "completed", 100, 0.5, "/w1"],
      ["2026-01-02T00-00-00-bbbbbb", "failed", 7, 0.01, "/w2"],
    ]);
    expect(rows[0]!.title).toBe("Add a login page with a form");
    expect(rows[1]!.title.length).toBeLessThanOrEqual(81);
    expect([...(await journalRows()).values()].map((row) => row.status)).toEqual(["completed", "failed"]);
  });

  it("lists a long history from the index without reading any log, and does not rewrite the index to do it", async () => {
    await copiedTasks(fixture.store, 2_000);
    const first = await fixture.store.list();
    expect(first).toHaveLength(2_000);
    const written = await stat(journal());
    await removeEveryLog(fixture.store);
    const again = await fixture.store.list();
    expect(again).toEqual(first);
    expect(again.filter((row) => row.workspace === "/w1")).toHaveLength(500);
    expect(again.every((row) => row.status === "completed" && row.tokensIn === 1200)).toBe(true);
    const after = await stat(journal());
    expect([after.ino, after.size, after.mtimeMs]).toEqual([written.ino, written.size, written.mtimeMs]);
  });

  it("keeps every row when many tasks in several processes finish at once while the index is compacted", { timeout: 60_000 }, async () => {
    // Rows of 10,000 earlier tasks (since deleted), so that each compaction takes a while.
    const earlier = Array.from({ length: 10_000 }, (_, index) => ({
      taskId: `old-${index}`,
      title: "t",
      createdAt: index,
      updatedAt: index,
      workspace: "/w",
      tokensIn: 0,
      tokensOut: 0,
      cost: 0,
      status: "completed" as const,
    }));
    await compactJournal(journal(), earlier);
    const children = Promise.all([runChild("one", 30), runChild("two", 30), runChild("three", 30)]);
    let finished = false;
    void children.finally(() => (finished = true)).catch(() => {});
    let compactions = 0;
    await finishTasks(fixture.store, "here", 40);
    while (!finished) {
      if (await compactJournal(journal(), [])) compactions += 1;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await children;
    expect(compactions).toBeGreaterThan(0);
    await removeEveryLog(fixture.store);
    const rows = await fixture.store.list();
    expect(rows).toHaveLength(130);
    expect(rows.every((row) => row.status === "completed")).toBe(true);
    for (const [prefix, count] of [
      ["one", 30],
      ["two", 30],
      ["three", 30],
      ["here", 40],
    ] as const) {
      for (let index = 0; index < count; index += 1) expect(rows.find((row) => row.taskId === `${prefix}-${index}`)?.tokensIn).toBe(index);
    }
  });

  it("rebuilds a missing index from the logs once; the next listing reads no log", async () => {
    await makeTasks();
    await rm(journal());
    expect((await fixture.store.list()).map((row) => [row.taskId, row.status, row.tokensIn])).toEqual([
      ["2026-01-01T00-00-00-aaaaaa", "completed", 100],
      ["2026-01-02T00-00-00-bbbbbb", "failed", 7],
    ]);
    await removeEveryLog(fixture.store);
    expect((await fixture.store.list()).map((row) => row.status)).toEqual(["completed", "failed"]);
  });

  it("rebuilds a damaged index from the logs and writes it whole again", async () => {
    await makeTasks();
    await writeFile(journal(), '{"taskId":\n\u0000\u0000garbage\n{"version":1,"tasks":[');
    expect((await fixture.store.list()).map((row) => row.status)).toEqual(["completed", "failed"]);
    expect((await readFile(journal(), "utf8")).trimEnd().split("\n")).toHaveLength(2);
    await removeEveryLog(fixture.store);
    expect((await fixture.store.list()).map((row) => row.tokensIn)).toEqual([100, 7]);
  });

  it("takes the rows of the index file of earlier versions, reading again only those older than their log", async () => {
    await makeTasks();
    await rm(journal());
    const legacy = join(fixture.dataDir, "history.json");
    const row = (taskId: string, tokensIn: number, updatedAt: number) => ({ taskId, title: "t", createdAt: 1, updatedAt, workspace: "/w", tokensIn, tokensOut: 0, cost: 0, status: "completed" });
    // The first row is newer than its log (kept as it is); the second is older (read again).
    await writeFile(legacy, JSON.stringify({ version: 1, tasks: [row("2026-01-01T00-00-00-aaaaaa", 555, Date.now() + 60_000), row("2026-01-02T00-00-00-bbbbbb", 555, 0)] }));
    expect((await fixture.store.list()).map((listed) => listed.tokensIn)).toEqual([555, 7]);
    await expect(stat(legacy)).rejects.toThrow();
  });

  it("shows a task whose process died while running as aborted, and writes that down", async () => {
    const writer = await fixture.store.create({ taskId: "died", task: "t", workspace: "/w" });
    writer.append({ kind: "status", status: "running", tokensIn: 1, tokensOut: 1, cost: 0 });
    await writer.flush();
    expect((await fixture.store.list())[0]!.status).toBe("running");
    await writer.close(); // the lock goes, as if the process had died; the log still says running
    expect((await fixture.store.list())[0]!.status).toBe("aborted");
    expect((await journalRows()).get("died")?.status).toBe("aborted");
  });

  it("shows a resumed task as running while it is open, and with its totals when it ends", async () => {
    await makeTasks();
    const { writer } = await fixture.store.open("2026-01-02T00-00-00-bbbbbb");
    expect((await fixture.store.list()).map((row) => row.status)).toEqual(["completed", "running"]);
    writer.append({ kind: "status", status: "completed", tokensIn: 9, tokensOut: 2, cost: 0.02 });
    await writer.close();
    expect((await fixture.store.list()).map((row) => [row.status, row.tokensIn])).toEqual([
      ["completed", 100],
      ["completed", 9],
    ]);
  });

  it("lists neither deleted tasks nor folders that are not tasks", async () => {
    await makeTasks();
    await rm(fixture.store.taskDir("2026-01-01T00-00-00-aaaaaa"), { recursive: true });
    await rm(join(fixture.store.taskDir("2026-01-02T00-00-00-bbbbbb"), "meta.json"));
    await rm(journal());
    expect(await fixture.store.list()).toEqual([]);
  });
});
