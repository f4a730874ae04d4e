/**
 * Task store benchmark (issue 7, SPEC P-perf-4). Run with `npm run bench -- store`.
 *
 * 1. Appending: a batch of messages appended to a fresh task (entries 1..N) against
 *    the same batch appended after 1,000 messages are already in the log. The log is
 *    append-only, so the ratio should stay near 1 (goal: at most 2).
 * 2. Loading a task of 5,000 messages (5,000 UI + 5,000 API entries), against the
 *    bare minimum of reading the same file and JSON-parsing every line.
 * Rounds interleave the two sides so both see the same machine load. Exits with 1 when
 * the append goal is missed.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { TaskStore } from "../src/store/task-store.js";
import type { TaskLogWriter } from "../src/store/log-writer.js";

const BATCH = 100;
const ROUNDS = 9;
const APPEND_GOAL = 2;

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** A message of realistic size: a paragraph of assistant text and a tool result. */
function appendMessage(writer: TaskLogWriter, index: number): void {
  const text = `Step ${index}: `.padEnd(1_500, "lorem ipsum dolor sit amet ");
  writer.append({ kind: "ui", message: { id: `m${index}`, ts: Date.now(), type: "say", say: "text", text, partial: false } });
  writer.append({ kind: "api", message: { role: "assistant", content: [{ type: "text", text }] } });
}

const root = await mkdtemp(join(tmpdir(), "cairn-store-bench-"));
const store = new TaskStore({ dataDir: root });
let taskNumber = 0;

async function timeBatch(existing: number): Promise<number> {
  taskNumber += 1;
  const writer = await store.create({ taskId: `bench-${taskNumber}`, task: "bench", workspace: root });
  for (let index = 0; index < existing; index += 1) appendMessage(writer, index);
  // Earlier messages were written long before in a real task: let the kernel write them
  // back now, so the batch is not measured against a pile of dirty pages.
  await writer.flush();
  const start = performance.now();
  for (let index = existing; index < existing + BATCH; index += 1) appendMessage(writer, index);
  const elapsed = performance.now() - start;
  await writer.close();
  return elapsed;
}

try {
  // Warm-up, so the first measured appends do not pay for compilation.
  await timeBatch(200);

  const appendRatios: number[] = [];
  const firstTimes: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const lateFirst = round % 2 === 1;
    const late1 = lateFirst ? await timeBatch(1_000) : 0;
    const early = await timeBatch(0);
    const late = lateFirst ? late1 : await timeBatch(1_000);
    firstTimes.push(early / BATCH);
    appendRatios.push(late / early);
  }

  const bigWriter = await store.create({ taskId: "bench-5000", task: "bench", workspace: root });
  for (let index = 0; index < 5_000; index += 1) appendMessage(bigWriter, index);
  await bigWriter.close();
  const logPath = join(root, "tasks", "bench-5000", "log.jsonl");
  const loadRatios: number[] = [];
  const loadTimes: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const loadStart = performance.now();
    const loaded = await store.load("bench-5000");
    const loadTime = performance.now() - loadStart;
    if (loaded.uiMessages.length !== 5_000 || loaded.apiHistory.length !== 5_000) throw new Error("the 5,000-message task did not load whole");
    const rawStart = performance.now();
    const text = await readFile(logPath, "utf8");
    let parsed = 0;
    for (const line of text.split("\n")) if (line !== "") parsed += JSON.parse(line) === null ? 0 : 1;
    const rawTime = performance.now() - rawStart;
    if (parsed !== 10_000) throw new Error("unexpected line count");
    loadTimes.push(loadTime);
    loadRatios.push(loadTime / rawTime);
  }
  const size = (await readFile(logPath)).length;

  const appendRatio = median(appendRatios);
  process.stdout.write(
    `append: message 1,001-1,100 vs 1-100: ratio ${appendRatio.toFixed(2)} (goal <= ${APPEND_GOAL}); ` +
      `first messages ${(median(firstTimes) * 1000).toFixed(0)} us each (UI + API entry, ~3 KB)\n` +
      `load 5,000 messages (${(size / 1_048_576).toFixed(1)} MB log): ${median(loadTimes).toFixed(0)} ms, ` +
      `${median(loadRatios).toFixed(2)}x reading the file and JSON-parsing its lines\n`,
  );
  process.exitCode = appendRatio <= APPEND_GOAL ? 0 : 1;
} finally {
  await rm(root, { recursive: true, force: true });
}
