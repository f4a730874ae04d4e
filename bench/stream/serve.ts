/**
 * The stream benchmark's server in a process of its own, so serving 1 MiB in
 * small frames costs neither the floor nor cairn CPU time in the measurement.
 * Usage: node --import tsx bench/stream/serve.ts COUNT [BATCH_BYTES]  (prints "listening on URL").
 * BATCH_BYTES > 0: the event streams leave in blocks of that size (see batch-writes.ts);
 * 0 or absent: one write per SSE frame, as cairn's scripted server writes them.
 */
import { startScriptedServer } from "../../src/llm/scripted/server.js";
import { streamScenario } from "./answers.js";
import { batchEventStreamWrites } from "./batch-writes.js";

const count = Number(process.argv[2] ?? 10);
const batchBytes = Number(process.argv[3] ?? 0);
if (batchBytes > 0) batchEventStreamWrites(batchBytes);
const server = await startScriptedServer({ scenario: streamScenario(count) });
process.stdout.write(`listening on ${server.url}\n`);
const stop = (): void => void server.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
