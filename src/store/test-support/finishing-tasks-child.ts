/** A child process for the history index tests: `finishing-tasks-child.ts <dataDir> <prefix> <count>` runs finishTasks, then prints "done". */
import { TaskStore } from "../task-store.js";
import { finishTasks } from "./finishing-tasks.js";

const [dataDir, prefix, count] = process.argv.slice(2);
if (dataDir === undefined || prefix === undefined || count === undefined) throw new Error("usage: finishing-tasks-child.ts <dataDir> <prefix> <count>");
await finishTasks(new TaskStore({ dataDir }), prefix, Number(count));
process.stdout.write("done\n");
