/**
 * The 200-turn task (bench/stream/turns.ts) in the terminal UI: the built
 * bin/cairn in tmux with --yes, against the scripted server in this process.
 * When request N reaches the server, cairn waits for its answer, so its CPU
 * time read then closes turn N; with `heap`, each request also sends cairn a
 * SIGUSR2, on which the preloaded report-usage.js collects garbage and records
 * the live heap.
 */
import { readFileSync, readdirSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startScriptedServer } from "../../src/llm/scripted/server.js";
import { startTmux } from "../../src/ui/tui/test-support/tmux.js";
import { manyTurnsScenario } from "../stream/answers.js";
import { procThreadsCpuMs, usagePreload } from "../stream/measure-process.js";
import type { ManyTurnsRun } from "../stream/turns.js";

/** The node process whose command line holds `tag`. */
export function processWithTag(tag: string): number | undefined {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() !== "node") continue;
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(tag)) return Number(entry);
    } catch {
      // gone
    }
  }
  return undefined;
}

export async function runManyTurnsInTerminal(options: { bin: string; turns: number; heap: boolean }): Promise<ManyTurnsRun> {
  const root = await mkdtemp(join(tmpdir(), "cairn-bench-tui-turns-"));
  const server = await startScriptedServer({ scenario: manyTurnsScenario(options.turns) });
  const tag = `bench-turns-${process.pid}-${Date.now()}`;
  const heapFile = join(root, "heap.txt");
  const workspace = join(root, "workspace");
  await mkdir(join(workspace, "notes"), { recursive: true });
  for (let index = 0; index < 10; index += 1) {
    await writeFile(join(workspace, "notes", `file-${index}.txt`), `Note ${index}: the build passes and the tests are green.\n`.repeat(8));
  }
  const started = performance.now();
  const session = await startTmux({
    command: [
      process.execPath,
      ...(options.heap ? ["--expose-gc", "--import", usagePreload] : []),
      options.bin,
      "--yes",
      "--no-checkpoints",
      "--provider",
      "anthropic",
      "--base-url",
      server.url,
      "--api-key",
      "bench",
      tag,
    ],
    cwd: workspace,
    env: { CAIRN_HOME: join(root, "data"), XDG_CONFIG_HOME: join(root, "config"), NO_COLOR: "1", ...(options.heap ? { BENCH_HEAP_FILE: heapFile } : {}) },
    columns: 100,
    rows: 30,
  });
  try {
    let pid: number | undefined;
    const cpuAtRequest: number[] = [];
    for (let request = 0; request <= options.turns; request += 1) {
      await server.waitForChunks(request, 1);
      pid ??= processWithTag(tag);
      if (pid === undefined) throw new Error("the terminal UI's process was not found");
      cpuAtRequest.push(procThreadsCpuMs(pid));
      if (options.heap) process.kill(pid, "SIGUSR2");
    }
    await session.waitFor(/Task completed/, { timeoutMs: 60_000 });
    const wallMs = performance.now() - started;
    const heapAtRequest = options.heap ? (await readFile(heapFile, "utf8")).trim().split("\n").map(Number) : [];
    return { cpuAtRequest, heapAtRequest, wallMs };
  } finally {
    await session.kill();
    await server.close();
    // A closed terminal's cairn may still be writing its code cache there as it ends.
    await rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
}
