/**
 * The terminal UI benchmark's scripted server in a process of its own, so its
 * CPU counts on neither side. Usage: node --import tsx bench/tui/serve.ts COUNT [BATCH_BYTES]
 * (prints "listening on URL").
 */
import { startScriptedServer } from "../../src/llm/scripted/server.js";
import { batchEventStreamWrites } from "../stream/batch-writes.js";
import { markdownScenario } from "./markdown-answer.js";

const count = Number(process.argv[2] ?? 10);
const batchBytes = Number(process.argv[3] ?? 0);
if (batchBytes > 0) batchEventStreamWrites(batchBytes);
const server = await startScriptedServer({ scenario: markdownScenario(count) });
process.stdout.write(`listening on ${server.url}\n`);
const stop = (): void => void server.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
