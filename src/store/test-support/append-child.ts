/**
 * A child process for crash tests: `append-child.ts <dataDir> <taskId> <mode>`.
 * mode "append": opens (or creates) the task and appends numbered entries forever,
 *   printing "acked N" after each append returns, until it is killed.
 * mode "hold": opens the task, prints "holding", and waits to be killed.
 */
import { TaskStore } from "../task-store.js";
import { entrySize } from "./entry-size.js";

const [dataDir, taskId, mode] = process.argv.slice(2);
if (dataDir === undefined || taskId === undefined) throw new Error("usage: append-child.ts <dataDir> <taskId> <mode>");
const store = new TaskStore({ dataDir });

async function openOrCreate() {
  try {
    const { writer, loaded } = await store.open(taskId!);
    const last = loaded.uiMessages[loaded.uiMessages.length - 1];
    return { writer, next: last === undefined ? 0 : Number(last.id) + 1 };
  } catch (error) {
    if ((error as Error).name !== "TaskNotFoundError") throw error;
    return { writer: await store.create({ taskId: taskId!, task: "crash test", workspace: dataDir! }), next: 0 };
  }
}

const { writer, next } = await openOrCreate();
if (mode === "hold") {
  process.stdout.write("holding\n");
  setInterval(() => {}, 1000);
} else {
  process.stdout.write(`start ${next}\n`);
  for (let sequence = next; ; sequence += 1) {
    const size = entrySize(sequence);
    writer.append({
      kind: "ui",
      message: { id: String(sequence), ts: Date.now(), type: "say", say: "text", text: "x".repeat(size), partial: false },
    });
    writer.append({ kind: "api", message: { role: "assistant", content: [{ type: "text", text: String(sequence) }] } });
    process.stdout.write(`acked ${sequence}\n`);
    if (sequence % 50 === 0) await writer.flush();
  }
}
