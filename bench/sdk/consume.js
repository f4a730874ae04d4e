// The SDK side of bench/sdk.bench.ts: one task through `startTask`, every event
// consumed as a program would (each message's text kept up to date from its
// snapshots and deltas), settings as `cairn run --json --yes --no-checkpoints`.
// Usage: node consume.js anthropic|openai BASE_URL xml|native TASK
// Prints once at the end: events seen, characters of the model's text, the status.
// "cairn" is this checkout's own package (Node resolves a package's own name through its exports).
import { isDelta, startTask } from "cairn";

const [provider, baseUrl, toolProtocol, prompt] = process.argv.slice(2);
if (!provider || !baseUrl || !toolProtocol || !prompt) {
  process.stderr.write("usage: node consume.js anthropic|openai BASE_URL xml|native TASK\n");
  process.exit(2);
}
const task = startTask(prompt, { provider, baseUrl, apiKey: "bench", toolProtocol, permissionMode: "bypassPermissions", checkpoints: false });
const texts = new Map();
let events = 0;
let result;
for await (const event of task) {
  events += 1;
  if (event.type === "result") {
    result = event;
    continue;
  }
  if (isDelta(event)) texts.set(event.id, (texts.get(event.id) ?? "") + event.delta);
  else texts.set(event.id, event.text);
}
let text = 0;
for (const value of texts.values()) text += value.length;
process.stdout.write(`${JSON.stringify({ events, text, status: result?.status })}\n`);
process.exitCode = result?.exitStatus ?? 1;
