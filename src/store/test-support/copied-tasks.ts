import { copyFile, mkdir, readdir, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { TaskStore } from "../task-store.js";
import { say } from "./temporary.js";

/**
 * `count` finished tasks: one written through the store, then its log copied under new
 * ids (ids `copy-<n>`, createdAt n, workspaces /w0../w3), the fast way to a long history.
 */
export async function copiedTasks(store: TaskStore, count: number): Promise<void> {
  const writer = await store.create({ taskId: "original", task: "the original", workspace: "/w0", createdAt: 0 });
  writer.append({ kind: "ui", message: say("a", "Reading the code first.") });
  writer.append({ kind: "api", message: { role: "assistant", content: [{ type: "text", text: "Reading the code first." }] } });
  writer.append({ kind: "status", status: "completed", tokensIn: 1200, tokensOut: 300, cost: 0.02 });
  await writer.close();
  const log = join(store.taskDir("original"), "log.jsonl");
  const copy = async (index: number) => {
    const taskId = `copy-${String(index).padStart(5, "0")}`;
    const folder = store.taskDir(taskId);
    await mkdir(folder);
    await writeFile(join(folder, "meta.json"), JSON.stringify({ taskId, task: `task number ${index}`, workspace: `/w${index % 4}`, createdAt: index }));
    await copyFile(log, join(folder, "log.jsonl"));
  };
  for (let index = 1; index < count; index += 50) await Promise.all(Array.from({ length: Math.min(50, count - index) }, (_, offset) => copy(index + offset)));
}

/** Removes every task's meta.json and log (the folders stay): what is listed after this came from the index. */
export async function removeEveryLog(store: TaskStore): Promise<void> {
  const remove = (path: string) => unlink(path).catch(() => {});
  await Promise.all((await readdir(store.tasksDir)).map((taskId) => Promise.all([remove(join(store.tasksDir, taskId, "meta.json")), remove(join(store.tasksDir, taskId, "log.jsonl"))])));
}
