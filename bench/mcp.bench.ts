/**
 * MCP hub benchmark (issue 8). Run with `npm run bench -- mcp`. The hub's tool call
 * (lookup, per-call signal, progress wiring, result conversion) is timed against a
 * bare SDK client, both in sessions of the same server-everything process (over
 * streamable HTTP, so one process serves both), rounds interleaved so both see the
 * same machine load. Exits with 1 when the goal is missed.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { performance } from "node:perf_hooks";
import { McpHub } from "../src/mcp/hub.js";
import { serverConfig, startHttpEverything } from "../src/mcp/test-support/servers.js";

const CALLS_PER_ROUND = 50;
const ROUNDS = 9;
const GOAL = 1.5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const server = await startHttpEverything();
const direct = new Client({ name: "bench", version: "0" });
await direct.connect(new StreamableHTTPClientTransport(new URL(server.url)));
await direct.listTools();
const hub = new McpHub({ servers: [serverConfig("everything", { type: "streamableHttp", url: server.url, headers: {} })] });
const status = await hub.waitForServers(120_000, new AbortController().signal);
if (status.pending.length > 0) throw new Error("server-everything did not start");
const signal = new AbortController().signal;

async function timeDirect(): Promise<number> {
  const start = performance.now();
  for (let call = 0; call < CALLS_PER_ROUND; call++) {
    await direct.callTool({ name: "echo", arguments: { message: `m${call}` } });
  }
  return performance.now() - start;
}

async function timeHub(): Promise<number> {
  const start = performance.now();
  for (let call = 0; call < CALLS_PER_ROUND; call++) {
    await hub.callTool({ server: "everything", tool: "echo", arguments: { message: `m${call}` }, signal });
  }
  return performance.now() - start;
}

await timeDirect();
await timeHub();
const ratios: number[] = [];
const directTimes: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  // Alternate which goes first, so neither always runs on a warmer machine.
  const hubFirst = round % 2 === 1;
  const measuredFirst = hubFirst ? await timeHub() : 0;
  const baseline = await timeDirect();
  const measured = hubFirst ? measuredFirst : await timeHub();
  directTimes.push(baseline / CALLS_PER_ROUND);
  ratios.push(measured / baseline);
}
await hub.close();
await direct.close();
await server.stop();

const ratio = median(ratios);
process.stdout.write(
  `tool call through the hub / bare SDK client: ${ratio.toFixed(2)} (goal <= ${GOAL}; ` + `median of ${ROUNDS} rounds of ${CALLS_PER_ROUND} echo calls; bare call ~${median(directTimes).toFixed(2)} ms this run)\n`,
);
process.exitCode = ratio <= GOAL ? 0 : 1;
