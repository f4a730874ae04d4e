import type { TaskStore } from "../task-store.js";

/** Many tasks started and finished at the same moment, as parallel runs or subagents do: ids `<prefix>-<n>`, tokensIn n. */
export async function finishTasks(store: TaskStore, idPrefix: string, howMany: number): Promise<void> {
  const writers = await Promise.all(Array.from({ length: howMany }, (_, index) => store.create({ taskId: `${idPrefix}-${index}`, task: `task ${index}`, workspace: "/w" })));
  writers.forEach((writer, index) => writer.append({ kind: "status", status: "completed", tokensIn: index, tokensOut: 1, cost: 0 }));
  await Promise.all(writers.map((writer) => writer.close()));
}
