// A tiny program that asks one question through HeadlessHost on the real
// process stdin, to prove a headless run answers, or gives up, and then exits.
import { HeadlessHost } from "../headless-host.js";
import type { AskMessage } from "../../../task/contracts/messages.js";

const [mode, onAsk] = process.argv.slice(2);
const host = new HeadlessHost({
  json: mode === "json",
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  taskId: "task-1",
  onAsk: onAsk === "deny" ? "deny" : "fail",
  yes: false,
});
const message: AskMessage = {
  type: "ask",
  ask: "tool",
  id: "ask-1",
  ts: 1,
  text: "Edit a.ts",
  partial: false,
  meta: { tool: "write_to_file", path: "a.ts" },
};
host.onMessage(message);
try {
  const answer = await host.answerAsk(message, new AbortController().signal);
  process.stdout.write(`ANSWER ${JSON.stringify(answer)}\n`);
} catch (error) {
  process.stderr.write(`cairn: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
host.close();
