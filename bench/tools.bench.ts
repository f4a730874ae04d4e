/**
 * Tools benchmark (issue 5). Run with `npm run bench -- tools`.
 * (The first baseline of search_files runs ripgrep with the flags cairn passes,
 * so the ratio is cairn's own cost: spawning, parsing JSON events, formatting.)
 * - replace_in_file on a 5 MB file through the whole executor (approval,
 *   matching, diff, atomic write), exact and fallback (line-trimmed) match,
 *   against a baseline that reads the file, replaces the same span with
 *   indexOf + slice, and writes it back.
 * - search_files on a generated tree of about 100 MB against running the same
 *   ripgrep binary directly on it.
 * Every goal is a ratio of medians from the same run; exits with 1 when one is missed.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { rgPath } from "@vscode/ripgrep";
import { createToolExecutor } from "../src/tools/create-tool-executor.js";
import { createRecordingContext } from "../src/tools/test-support/recording-context.js";

const REPETITIONS = 7;

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Interleaved runs after one warm-up each, so load bursts hit all alike. Returns median ms per run. */
async function timeEach(runs: Array<() => unknown>): Promise<number[]> {
  for (const run of runs) await run();
  const samples = runs.map((): number[] => []);
  for (let repetition = 0; repetition < REPETITIONS; repetition++) {
    for (const [index, run] of runs.entries()) {
      const start = performance.now();
      await run();
      samples[index]?.push(performance.now() - start);
    }
  }
  return samples.map(median);
}

const base = mkdtempSync(join(tmpdir(), "cairn-tools-bench-"));
let failed = false;
const report = (name: string, value: number, baseline: number, goal: number) => {
  const ratio = value / baseline;
  const ok = ratio <= goal;
  if (!ok) failed = true;
  console.log(`${name}: ${value.toFixed(1)} ms vs baseline ${baseline.toFixed(1)} ms = ${ratio.toFixed(2)}x (goal <= ${goal}x) ${ok ? "ok" : "MISSED"}`);
};

try {
  // ---- replace_in_file on a 5 MB file ----
  const workspace = join(base, "ws");
  mkdirSync(workspace);
  const lines: string[] = [];
  for (let index = 0, size = 0; size < 5 * 1024 * 1024; index++) {
    const line = `    const value${index} = compute(${index}, "some text to make the line longer");`;
    lines.push(line);
    size += line.length + 1;
  }
  const middle = Math.floor(lines.length / 2);
  const original = lines.join("\n") + "\n";
  const file = join(workspace, "big.ts");
  console.log(`file: ${(original.length / 1048576).toFixed(1)} MB, ${lines.length} lines`);
  const executor = createToolExecutor({ workspace, dataDir: join(base, "data"), yes: true, allowOutsideWrites: false, protocol: "xml" });
  const searchLines = lines.slice(middle, middle + 3);
  const replaceLines = ["    const replaced = true;"];
  const exactDiff = `------- SEARCH\n${searchLines.join("\n")}\n=======\n${replaceLines.join("\n")}\n+++++++ REPLACE`;
  const fallbackDiff = `------- SEARCH\n${searchLines.map((line) => line.trim()).join("\n")}\n=======\n${replaceLines.join("\n")}\n+++++++ REPLACE`;
  let call = 0;
  const viaTool = (diff: string) => async () => {
    writeFileSync(file, original);
    const outcome = await executor.executeTool({ type: "tool_use", id: `b${call++}`, name: "replace_in_file", params: { path: "big.ts", diff }, partial: false }, createRecordingContext());
    if (outcome.status !== "success") throw new Error(`replace_in_file failed: ${JSON.stringify(outcome.content).slice(0, 300)}`);
  };
  const baseline = () => {
    writeFileSync(file, original);
    const text = readFileSync(file, "utf8");
    const search = searchLines.join("\n") + "\n";
    const start = text.indexOf(search);
    writeFileSync(file, text.slice(0, start) + replaceLines.join("\n") + "\n" + text.slice(start + search.length));
  };
  const [exact, fallback, plain] = await timeEach([viaTool(exactDiff), viaTool(fallbackDiff), baseline]);
  report("replace_in_file 5 MB, exact match", exact!, plain!, 8);
  report("replace_in_file 5 MB, line-trimmed match", fallback!, plain!, 10);

  // ---- search_files on a ~100 MB tree ----
  const tree = join(base, "tree");
  const fileBody = Array.from({ length: 700 }, (_, index) => `line ${index}: the quick brown fox jumps over the lazy dog ${index * 7}`).join("\n") + "\n";
  let total = 0;
  let fileCount = 0;
  for (let folder = 0; total < 100 * 1024 * 1024; folder++) {
    const path = join(tree, `dir${folder}`);
    mkdirSync(path, { recursive: true });
    for (let index = 0; index < 50 && total < 100 * 1024 * 1024; index++) {
      const needle = fileCount % 40 === 0 ? "\nneedle_marker here\n" : "";
      writeFileSync(join(path, `file${index}.txt`), fileBody + needle);
      total += fileBody.length + needle.length;
      fileCount++;
    }
  }
  console.log(`tree: ${(total / 1048576).toFixed(0)} MB in ${fileCount} files`);
  const searchExecutor = createToolExecutor({ workspace: tree, dataDir: join(base, "data"), yes: true, allowOutsideWrites: false, protocol: "xml" });
  const viaSearch = async () => {
    const outcome = await searchExecutor.executeTool({ type: "tool_use", id: `s${call++}`, name: "search_files", params: { path: ".", regex: "needle_marker" }, partial: false }, createRecordingContext());
    if (outcome.status !== "success") throw new Error("search_files failed");
  };
  const direct = (args: string[]) => () => {
    const result = spawnSync(rgPath, args, { maxBuffer: 64 * 1024 * 1024 });
    if (result.status !== 0) throw new Error("rg failed");
  };
  const [search, sameFlags, plainRg] = await timeEach([
    viaSearch,
    direct(["--json", "--context", "1", "--no-require-git", "--regexp", "needle_marker", "--", tree]),
    direct(["--context", "1", "--line-number", "needle_marker", tree]),
  ]);
  report("search_files ~100 MB tree vs rg with the same flags", search!, sameFlags!, 1.5);
  report("search_files ~100 MB tree vs plain rg -n -C1", search!, plainRg!, 3);
} finally {
  rmSync(base, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
