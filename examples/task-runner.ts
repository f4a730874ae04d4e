/**
 * Runs a task in a folder, prints the model's text as it streams and a
 * one-line summary at the end, and exits with the task's exit status
 * (0 completed, 1 failed, 3 stopped by a budget, 130 aborted).
 *
 *   node task-runner.js <folder> <task...>
 *
 * Provider settings come from the environment, as for `cairn run`
 * (CAIRN_PROVIDER, ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, CAIRN_MODEL ...).
 * Edits inside the folder are approved; anything else that needs approval
 * (a command that is not read-only) is refused.
 */
import { isDelta, startTask } from "cairn";

const [folder, ...words] = process.argv.slice(2);
if (folder === undefined || words.length === 0) {
  console.error("usage: task-runner <folder> <task...>");
  process.exit(2);
}

const task = startTask(words.join(" "), { cwd: folder, permissionMode: "acceptEdits" });
const onInterrupt = (): void => task.abort();
process.once("SIGINT", onInterrupt);

/** How much of each text message is already on the screen, by message id. */
const printed = new Map<string, number>();
try {
  for await (const event of task) {
    if (event.type === "result") {
      const cost = `$${event.cost.toFixed(4)}`;
      process.stdout.write(`\n${event.status} · ${event.turns} turn${event.turns === 1 ? "" : "s"} · ${event.tokensIn} tokens in, ${event.tokensOut} out · ${cost}${event.error ? ` · ${event.error}` : ""}\n`);
      process.exitCode = event.exitStatus;
      continue;
    }
    if (event.type !== "say" || (event.say !== "text" && event.say !== "completion_result")) continue;
    const shown = printed.get(event.id) ?? 0;
    // A delta extends the message; a snapshot (its first and last event) carries its whole text.
    const more = isDelta(event) ? event.delta : event.text.slice(shown);
    if (more !== "") process.stdout.write(more);
    printed.set(event.id, shown + more.length);
    if (!event.partial) process.stdout.write("\n");
  }
} catch (error) {
  // The task could not start: no provider configured, a bad setting, the data folder locked.
  console.error(`task-runner: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  process.off("SIGINT", onInterrupt);
}
