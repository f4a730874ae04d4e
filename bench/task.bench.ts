/**
 * P-perf-2: CPU time of a 1 MB streamed answer run through the whole Task in
 * `--json` mode, against only reading the same stream with the Anthropic SDK.
 * The scripted server runs in its own process, so only the client side is measured.
 */
import Anthropic from "@anthropic-ai/sdk";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { resolveSettings } from "../src/config/index.js";
import { createSession } from "../src/session/session.js";
import { HeadlessHost } from "../src/ui/headless/index.js";
import { startMockLlm } from "./process-timing.js";

const repetitions = Number(process.env["BENCH_REPETITIONS"] ?? 5);
const chunkSize = 32;
const answerBytes = 1_000_000;

function answerText(): string {
  const paragraph = "The quick brown fox checks the failing test, reads the source, and explains the fix in detail. ";
  let text = "";
  while (text.length < answerBytes) text += paragraph;
  return `${text}\n<attempt_completion>\n<result>done</result>\n</attempt_completion>`;
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

async function readWithSdk(url: string): Promise<number> {
  const client = new Anthropic({ apiKey: "bench-placeholder", baseURL: url });
  const start = process.cpuUsage();
  const stream = await client.messages.create({ model: "claude-sonnet-5-5", max_tokens: 1024, messages: [{ role: "user", content: "go" }], stream: true });
  let length = 0;
  for await (const event of stream) {
    if (event.type === "content_block_delta" && event.delta.type === "text_delta") length += event.delta.text.length;
  }
  if (length < answerBytes) throw new Error(`short answer: ${length}`);
  return cpuMs(start);
}

async function runTask(url: string, root: string, index: number, checkpoints: boolean): Promise<{ cpu: number; bytes: number }> {
  const workspace = join(root, `workspace-${index}`);
  await import("node:fs/promises").then((fs) => fs.mkdir(workspace, { recursive: true }));
  const settings = await resolveSettings({
    flags: { cwd: workspace, provider: "anthropic", baseUrl: url, apiKey: "bench-placeholder", yes: true, json: true, dataDir: join(root, "data") },
    env: {},
    cwd: workspace,
    userConfigDir: join(root, "config"),
  });
  let bytes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done();
    },
  });
  const host = new HeadlessHost({ json: true, stdout: sink, stderr: sink, stdin: undefined, taskId: "bench", onAsk: "deny", yes: true });
  const start = process.cpuUsage();
  const session = await createSession({ settings, host, start: { kind: "new", task: "bench" }, checkpoints });
  const result = await session.run();
  const cpu = cpuMs(start);
  host.close();
  await session.close();
  if (result.status !== "completed") throw new Error(`task ${result.status}: ${result.error ?? ""}`);
  return { cpu, bytes };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const root = await mkdtemp(join(tmpdir(), "cairn-bench-task-"));
try {
  const text = answerText();
  const turn = { text, chunkSize, usage: { inputTokens: 1000, outputTokens: 250_000 } };
  const scenarioFile = join(root, "scenario.json");
  await writeFile(scenarioFile, JSON.stringify({ turns: Array.from({ length: repetitions * 3 + 1 }, () => turn) }));
  const server = await startMockLlm(scenarioFile, fileURLToPath(new URL("../bin/cairn", import.meta.url)));
  try {
    await readWithSdk(server.url); // warm-up: module loading and JIT
    const sdk: number[] = [];
    const task: number[] = [];
    const loopOnly: number[] = [];
    let printed = 0;
    for (let index = 0; index < repetitions; index += 1) {
      sdk.push(await readWithSdk(server.url));
      const run = await runTask(server.url, root, index, true);
      task.push(run.cpu);
      printed = run.bytes;
      loopOnly.push((await runTask(server.url, root, repetitions + index, false)).cpu);
    }
    const ratio = median(task) / median(sdk);
    const loopRatio = median(loopOnly) / median(sdk);
    console.log(`answer: ${(text.length / 1e6).toFixed(2)} MB in ${chunkSize}-character deltas; ${repetitions} runs each, medians of CPU time`);
    console.log(`SDK only (read the stream):          ${median(sdk).toFixed(0)} ms`);
    console.log(`whole Task, --json, checkpoints on:  ${median(task).toFixed(0)} ms (printed ${(printed / 1e6).toFixed(1)} MB of JSON lines)`);
    console.log(`whole Task, --json, checkpoints off: ${median(loopOnly).toFixed(0)} ms`);
    console.log(`ratio Task / SDK: ${ratio.toFixed(2)}x with checkpoints, ${loopRatio.toFixed(2)}x without (goal <= 1.5x) ${ratio <= 1.5 ? "PASS" : "FAIL"}`);
  } finally {
    server.stop();
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
