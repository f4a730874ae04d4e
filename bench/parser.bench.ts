/**
 * Parser benchmark (issue 2, SPEC P-perf-1). Run with `npm run bench -- parser`
 * or `node --import tsx bench/parser.bench.ts`. Every goal is a ratio between
 * two timings of the same run (median of several repetitions), so the shared
 * machine's speed cancels out. Timings are the process's CPU time (user +
 * system, garbage collection included), not wall time: on a machine shared by
 * many processes, wall time mostly measures waiting for a core.
 * Exits with 1 when a goal is missed.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { AssistantMessageParser, parseAssistantMessage } from "../src/parser/assistant-message-parser.js";
import type { Block } from "../src/parser/types.js";

const CHUNK = 16;
const REPETITIONS = 9;
const MB = 1024 * 1024;

/** A realistic answer: prose, commands, file reads, whole files with HTML and code, diffs. */
function mixedAnswer(size: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let round = 0; length < size; round += 1) {
    const file = Array.from({ length: 40 }, (_, line) => `  <li class="item-${line}">${line} < ${round} && x > 0 — ünïcödé 😀</li>`).join("\n");
    const part =
      `I'll check the project layout first (step ${round}).\n\n` +
      `<list_files>\n<path>src/${round}</path>\n<recursive>true</recursive>\n</list_files>\n` +
      `Now reading a file with <b>markup</b> in prose.\n` +
      `<read_file>\n<path>src/module-${round}.ts</path>\n</read_file>\n` +
      `<write_to_file>\n<path>web/page-${round}.html</path>\n<content>\n<ul>\n${file}\n</ul>\n</content>\n</write_to_file>\n` +
      `<replace_in_file>\n<path>src/a-${round}.ts</path>\n<diff>\n------- SEARCH\nconst a = ${round};\n=======\nconst a = ${round + 1};\n+++++++ REPLACE\n</diff>\n</replace_in_file>\n` +
      `<execute_command>\n<command>npm test -- --grep "case ${round}"</command>\n<requires_approval>false</requires_approval>\n</execute_command>\n`;
    parts.push(part);
    length += part.length;
  }
  return parts.join("").slice(0, size);
}

/** One write_to_file whose content is `size` characters of source text. */
function singleValueAnswer(size: number): string {
  const line = 'export const value = items.filter((item) => item.size < limit && item.name !== "</div>");\n';
  const body = line.repeat(Math.ceil(size / line.length)).slice(0, size);
  return `Writing the file.\n<write_to_file>\n<path>big.ts</path>\n<content>\n${body}\n</content>\n</write_to_file>`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** CPU time of this process so far, in ms. */
function cpuNow(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/**
 * Median CPU time in ms of each run, after warm-up rounds. The runs are
 * interleaved, so a burst of load from other processes hits all of them
 * alike, and every other round runs them in reverse order, so none of them
 * always pays for the garbage the one before it left.
 */
function timeEach(runs: readonly (() => unknown)[], repetitions = REPETITIONS, warmUps = 2): number[] {
  for (let round = 0; round < warmUps; round += 1) for (const run of runs) run();
  const samples = runs.map((): number[] => []);
  for (let repetition = 0; repetition < repetitions; repetition += 1) {
    const order = runs.map((_, index) => index);
    if (repetition % 2 === 1) order.reverse();
    for (const index of order) {
      const start = cpuNow();
      runs[index]?.();
      samples[index]?.push(cpuNow() - start);
    }
  }
  return samples.map(median);
}

/**
 * Feeds `text` in chunks cut during the run, as a stream hands over fresh
 * strings (the cutting is counted; it is a small part). Chunks made in
 * advance would be hundreds of thousands of long-lived objects that every
 * garbage collection has to walk, which made the 4 MB runs look superlinear.
 */
function incremental(text: string): Block[] {
  const parser = new AssistantMessageParser();
  for (let start = 0; start < text.length; start += CHUNK) parser.push(text.slice(start, start + CHUNK));
  return parser.end();
}

function oneShot(text: string): Block[] {
  const parser = new AssistantMessageParser();
  parser.push(text);
  return parser.end();
}

/** The seed's way: parse the whole text so far again after every chunk. */
function reparseEveryChunk(text: string): Block[] {
  let soFar = "";
  let blocks: Block[] = [];
  for (let start = 0; start < text.length; start += CHUNK) {
    soFar += text.slice(start, start + CHUNK);
    blocks = parseAssistantMessage(soFar);
  }
  return blocks;
}

/** The figures are worthless if the two ways disagree: check before timing. */
function checkSame(text: string): void {
  const a = JSON.stringify(incremental(text));
  const b = JSON.stringify(oneShot(text));
  if (a !== b) throw new Error("incremental and one-shot parses differ; the benchmark would measure a bug");
}

let failures = 0;
function line(label: string, value: string): void {
  console.log(`${label.padEnd(58)} ${value}`);
}
function goal(label: string, ratio: number, passes: boolean, target: string): void {
  if (!passes) failures += 1;
  line(label, `${ratio.toFixed(2)}x  (goal ${target})  ${passes ? "PASS" : "FAIL"}`);
}
const ms = (value: number) => `${value.toFixed(1)} ms`;

/**
 * Each group runs in its own process. In one process, a group's garbage is
 * collected during the next group's runs and charged to them: the 4 MB runs
 * then looked ten times slower per byte than the 1 MB runs, one-shot included.
 */
const groups: Record<string, () => number[]> = {
  "mixed-1mb": () => {
    const text = checked(mixedAnswer(MB));
    return timeEach([() => incremental(text), () => oneShot(text)]);
  },
  "mixed-4mb": () => {
    const text = checked(mixedAnswer(4 * MB));
    return timeEach([() => incremental(text), () => oneShot(text)]);
  },
  "value-1mb": () => {
    const text = checked(singleValueAnswer(MB));
    return timeEach([() => incremental(text), () => oneShot(text)]);
  },
  "value-4mb": () => {
    const text = checked(singleValueAnswer(4 * MB));
    return timeEach([() => incremental(text)]);
  },
  "mixed-100kb": () => {
    const text = checked(mixedAnswer(100 * 1024));
    // The baseline is slow by nature (that is the point): three runs, no warm-up round.
    return [...timeEach([() => incremental(text)]), ...timeEach([() => reparseEveryChunk(text)], 3, 0)];
  },
};

function checked(text: string): string {
  checkSame(text);
  return text;
}

/**
 * Each group runs in its own process. `heapFlags` lets the linearity goal be
 * measured on the parser's own work: with V8's default young generation, a
 * 4 MB answer's retained blocks are promoted to the old generation and the
 * collector's extra work (not the parser's) grows faster than the input.
 */
function runGroup(name: string, heapFlags: string[] = []): number[] {
  const child = spawnSync(process.execPath, [...heapFlags, ...process.execArgv, fileURLToPath(import.meta.url), "--group", name], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (child.status !== 0) throw new Error(`benchmark group ${name} failed (exit ${String(child.status)})`);
  return JSON.parse(child.stdout) as number[];
}

if (process.argv[2] === "--group") {
  const measure = groups[process.argv[3] ?? ""];
  if (measure === undefined) throw new Error(`unknown benchmark group ${String(process.argv[3])}`);
  process.stdout.write(JSON.stringify(measure()));
} else {
  report();
}

function report(): void {
  // The 1 MB ratio is the goal of issue 18: measured in five processes (on the shared machine one
  // process's runs can all fall in a burst of load), the process with the median ratio is reported.
  const mixed1Runs = Array.from({ length: 5 }, () => runGroup("mixed-1mb")).sort(([incrementalA = 0, oneShotA = 1], [incrementalB = 0, oneShotB = 1]) => incrementalA / oneShotA - incrementalB / oneShotB);
  const [mixed1Incremental = 0, mixed1OneShot = 0] = mixed1Runs[2] ?? [];
  const mixed1Ratios = mixed1Runs.map(([incremental = 0, oneShot = 1]) => (incremental / oneShot).toFixed(2)).join(", ");
  const [mixed4Incremental = 0, mixed4OneShot = 0] = runGroup("mixed-4mb");
  const largeYoungGeneration = ["--max-semi-space-size=128"];
  const [mixed1Own = 0] = runGroup("mixed-1mb", largeYoungGeneration);
  const [mixed4Own = 0] = runGroup("mixed-4mb", largeYoungGeneration);
  const [single1Incremental = 0, single1OneShot = 0] = runGroup("value-1mb");
  const [single4Incremental = 0] = runGroup("value-4mb");
  const [small100kIncremental = 0, small100kReparse = 0] = runGroup("mixed-100kb");

  console.log(`node ${process.version}, ${CHUNK}-character chunks, CPU time, median of ${REPETITIONS} interleaved runs ` + `(re-parse baseline: 3), one process per group`);
  line("mixed 1 MB: incremental", ms(mixed1Incremental));
  line("mixed 1 MB: one-shot", ms(mixed1OneShot));
  line("mixed 4 MB: incremental", ms(mixed4Incremental));
  line("mixed 4 MB: one-shot", ms(mixed4OneShot));
  line("one tool, content 1 MB: incremental", ms(single1Incremental));
  line("one tool, content 1 MB: one-shot (one indexOf, for scale)", ms(single1OneShot));
  line("one tool, content 4 MB: incremental", ms(single4Incremental));
  line("mixed 100 KB: incremental", ms(small100kIncremental));
  line("mixed 100 KB: re-parse every chunk (seed's way)", ms(small100kReparse));
  line("(context) mixed, default heap: incremental 4 MB / 1 MB", `${(mixed4Incremental / mixed1Incremental).toFixed(2)}x`);
  goal("linearity, mixed (young generation 128 MB): incremental 4 MB / 1 MB", mixed4Own / mixed1Own, mixed4Own / mixed1Own <= 6, "<= 6");
  goal("linearity, one 1 MB value: incremental 4 MB / 1 MB", single4Incremental / single1Incremental, single4Incremental / single1Incremental <= 6, "<= 6");
  // For context: the one-shot parse grows the same way, so the excess is the heap (see bench/RESULTS.md).
  line("(context) mixed: one-shot 4 MB / 1 MB", `${(mixed4OneShot / mixed1OneShot).toFixed(2)}x`);
  line("(context) mixed 1 MB: incremental / one-shot in each of 5 processes", mixed1Ratios);
  goal("mixed 1 MB: incremental / one-shot (issue 18), median process", mixed1Incremental / mixed1OneShot, mixed1Incremental / mixed1OneShot <= 4, "<= 4");
  goal("mixed 4 MB: incremental / one-shot", mixed4Incremental / mixed4OneShot, mixed4Incremental / mixed4OneShot <= 5, "<= 5");
  goal("100 KB: re-parse every chunk / incremental", small100kReparse / small100kIncremental, small100kReparse / small100kIncremental >= 100, ">= 100");
  console.log(failures === 0 ? "parser: all goals met" : `parser: ${failures} goal(s) missed`);
  process.exitCode = failures === 0 ? 0 : 1;
}
