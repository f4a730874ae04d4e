/**
 * The stream benchmark's server in a process of its own, so serving 1 MiB in
 * small frames costs neither the floor nor cairn CPU time in the measurement.
 * Usage: node --import tsx bench/stream/serve.ts COUNT  (prints "listening on URL").
 */
import { startScriptedServer } from "../../src/llm/scripted/server.js";
import { streamScenario } from "./answers.js";

const count = Number(process.argv[2] ?? 10);
const server = await startScriptedServer({ scenario: streamScenario(count) });
process.stdout.write(`listening on ${server.url}\n`);
const stop = (): void => void server.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
