/**
 * The terminal UI against headless on the same answer (issue 33), in a real
 * terminal: the built bin/cairn in tmux (100x30) and `cairn run --json`, both on
 * the scripted server (a process of its own) streaming 1 MiB of markdown in
 * 16-character deltas (bench/tui/markdown-answer.ts), checkpoints off on both
 * sides, interleaved, medians.
 * - CPU and peak RSS of the cairn process when the answer is complete (the TUI's
 *   "Task completed" is on the screen; headless: at exit);
 * - time to the completion from the start of the process;
 * - first paint: from the process's start to its first write of the UI's prompt
 *   (bench/tui/paint-mark.cjs, preloaded), with no task (warm code cache); also the
 *   time until tmux shows it, which adds tmux's start and its screen updates;
 * - interactive: from the process's start until a key typed as soon as the prompt is on
 *   tmux's screen is echoed in the input line (the preload sees the frame that shows it),
 *   and until the UI's own first frame (Ink's, with the status line): the first paint may be
 *   the launcher's input box (src/launch/early-frame.ts), drawn before the bundle loads;
 * - key-to-echo while the answer streams: a key typed into the input line until
 *   tmux shows it. Keys are sent and the screen read through a tmux control-mode
 *   client (src/ui/tui/test-support/tmux-control.ts), the screen read again at
 *   each output of the pane (and every 2 ms): one `tmux` process per key and per
 *   look at the screen, as before, cost 30-80 ms each on the busy 2-core machine,
 *   more than what was measured. The old way is still printed, for comparison.
 * - a 200-turn task (bench/stream/turns.ts's) in the UI with --yes: CPU per turn
 *   and live heap of turns 181-200 against turns 1-20.
 * Goals: CPU <= 1.5x headless, peak RSS <= headless + 40 MB, time to the
 * completion <= 1.2x headless, first paint <= 250 ms, key-to-echo < 50 ms,
 * per-turn CPU and live heap of the late turns within 1.2x of the early ones.
 * Environment: BENCH_REPETITIONS (default 5), BENCH_TURNS (default 200), CAIRN_BENCH_BIN;
 * BENCH_PAINT_ONLY=1 measures only the first paint and interactive, of CAIRN_BENCH_BIN and,
 * interleaved, of CAIRN_BENCH_BASE_BIN when set.
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startTmux } from "../src/ui/tui/test-support/tmux.js";
import type { TmuxSession } from "../src/ui/tui/test-support/tmux.js";
import type { TmuxControl } from "../src/ui/tui/test-support/tmux-control.js";
import { markdownCharacters, markdownMatch } from "./tui/markdown-answer.js";
import { procCpu, runMeasured } from "./stream/measure-process.js";
import { startStreamServer } from "./stream/server-process.js";
import { pairMedian, perTurn } from "./stream/turns.js";
import type { ManyTurnsRun } from "./stream/turns.js";
import { processWithTag, runManyTurnsInTerminal } from "./tui/turns-in-terminal.js";

const bin = process.env["CAIRN_BENCH_BIN"] ?? fileURLToPath(new URL("../bin/cairn", import.meta.url));
const repetitions = Number(process.env["BENCH_REPETITIONS"] ?? 5);
const manyTurns = Number(process.env["BENCH_TURNS"] ?? 200);
const serverProgram = fileURLToPath(new URL("./tui/serve.ts", import.meta.url));
const paintMark = fileURLToPath(new URL("./tui/paint-mark.cjs", import.meta.url));
const columns = 100;
const rows = 30;

const median = (values: number[]): number => {
  const sorted = values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const root = await mkdtemp(join(tmpdir(), "cairn-bench-tui-"));
const compileCache = join(root, "compile-cache");
let runCount = 0;

async function inFreshFolder<T>(run: (workspace: string, env: Record<string, string>, tag: string) => Promise<T>): Promise<T> {
  runCount += 1;
  const folder = join(root, `run-${runCount}`);
  const workspace = join(folder, "workspace");
  const dataDir = join(folder, "data");
  await mkdir(workspace, { recursive: true });
  await writeFile(join(workspace, "README.md"), "# bench\n");
  await cp(compileCache, join(dataDir, "compile-cache"), { recursive: true }).catch(() => undefined);
  try {
    return await run(workspace, { CAIRN_HOME: dataDir, XDG_CONFIG_HOME: join(folder, "config"), NO_COLOR: "1" }, `run-${process.pid}-${runCount}`);
  } finally {
    // A closed terminal's cairn writes its code cache as it ends (SIGHUP): copied once it has.
    const deadline = performance.now() + 5_000;
    while (processesUsing(dataDir) > 0 && performance.now() < deadline) await sleep(20);
    await cp(join(dataDir, "compile-cache"), compileCache, { recursive: true }).catch(() => undefined);
    await rm(folder, { recursive: true, force: true });
  }
}

/** How many processes run with this data folder (cairn, or what it started). */
function processesUsing(dataDir: string): number {
  let count = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, "latin1").split("\0").includes(`CAIRN_HOME=${dataDir}`)) count += 1;
    } catch {
      // Gone, or not ours to read.
    }
  }
  return count;
}

const providerArgs = (url: string): string[] => ["--no-checkpoints", "--provider", "openai", "--base-url", `${url}/v1`, "--api-key", "bench", "--tool-protocol", "xml"];

interface Sample {
  cpuMs: number;
  rssMb: number;
  completionMs: number;
  keyToEchoMs?: number[];
  /** The same, each key sent and each look at the screen a tmux process of its own. */
  keyToEchoSpawnMs?: number[];
}

async function headless(url: string): Promise<Sample> {
  return inFreshFolder(async (workspace, env, tag) => {
    const usage = await runMeasured([bin, "run", "--yes", "--json", ...providerArgs(url), `${markdownMatch} ${tag}`], { env: { ...process.env, ...env }, cwd: workspace });
    if (usage.stdoutBytes < markdownCharacters) throw new Error(`headless cairn printed ${usage.stdoutBytes} bytes, less than the answer`);
    return { cpuMs: usage.selfMs, rssMb: usage.maxRssMb, completionMs: usage.wallMs };
  });
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

async function waitForScreen(session: TmuxSession, pattern: RegExp, timeoutMs: number, intervalMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (pattern.test(await session.capture())) return;
    await sleep(intervalMs);
  }
  throw new Error(`the screen never showed ${pattern}:\n${await session.capture()}`);
}

/** Until the screen matches, looked at every `intervalMs` through a control client (no process per look). */
async function waitForScreenThrough(control: TmuxControl, session: TmuxSession, pattern: RegExp, timeoutMs: number, intervalMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (pattern.test(await control.command(`capture-pane -p -t ${session.name}`))) return;
    await sleep(intervalMs);
  }
  throw new Error(`the screen never showed ${pattern}:\n${await session.capture()}`);
}

/** Until the screen matches: read through the control client at each output of the pane, and every 2 ms. */
async function waitForScreenControl(control: TmuxControl, session: TmuxSession, pattern: RegExp, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const seen = control.outputs();
    if (pattern.test(await control.command(`capture-pane -p -t ${session.name}`))) return;
    await control.outputAfter(seen, 2);
  }
  throw new Error(`the screen never showed ${pattern}:\n${await session.capture()}`);
}

/** Types `letters` one at a time while the answer streams; the time from each key to its echo. */
async function typeAndTime(session: TmuxSession, letters: string, typedBefore: string, control: TmuxControl | undefined): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < letters.length; index += 1) {
    const letter = letters[index]!;
    const typed = new RegExp(`› .*${typedBefore}${letters.slice(0, index + 1)}`);
    const sent = performance.now();
    if (control === undefined) {
      await session.sendText(letter);
      await waitForScreen(session, typed, 5_000, 2);
    } else {
      await control.command(`send-keys -t ${session.name} -l ${letter}`);
      await waitForScreenControl(control, session, typed, 5_000);
    }
    times.push(performance.now() - sent);
    await sleep(100);
  }
  return times;
}

async function openTui(workspace: string, env: Record<string, string>, args: string[], program = bin): Promise<TmuxSession> {
  return startTmux({ command: [process.execPath, program, ...args], cwd: workspace, env, columns, rows });
}

async function terminal(url: string, typeWhileStreaming: boolean): Promise<Sample> {
  return inFreshFolder(async (workspace, env, tag) => {
    const start = performance.now();
    const session = await openTui(workspace, env, [...providerArgs(url), `${markdownMatch} ${tag}`]);
    try {
      let pid: number | undefined;
      while (pid === undefined && performance.now() - start < 10_000) {
        pid = processWithTag(tag);
        if (pid === undefined) await sleep(2);
      }
      if (pid === undefined) throw new Error("the terminal UI's process was not found");
      let keys: Pick<Sample, "keyToEchoMs" | "keyToEchoSpawnMs"> = {};
      if (typeWhileStreaming) {
        // Wait for the answer to start, then type a few keys, one at a time.
        await waitForScreen(session, /step \d+/, 20_000, 10);
        const control = await session.control();
        try {
          const keyToEchoMs = await typeAndTime(session, "qwert", "", control);
          keys = { keyToEchoMs, keyToEchoSpawnMs: await typeAndTime(session, "asdf", "qwert", undefined) };
        } finally {
          control.close();
        }
      }
      // Looked for every 20 ms through one control client that is not sent the pane's output: a
      // tmux process per look (as before 4 December) took CPU from the 2 cores cairn streams on.
      const watcher = await session.control({ output: false });
      try {
        await waitForScreenThrough(watcher, session, /Task completed/, 120_000, 20);
      } finally {
        watcher.close();
      }
      const completionMs = performance.now() - start;
      const cpu = procCpu(pid);
      const rssMb = peakRssMb(pid);
      return { cpuMs: cpu.selfMs, rssMb, completionMs, ...keys };
    } finally {
      await session.kill();
    }
  });
}

interface Mark {
  sinceStartMs: number;
  cpuMs: number;
}

/** sinceStartMs, cpuMs: from the process's start until it wrote the prompt (bench/tui/paint-mark.cjs). */
interface Paint extends Mark {
  /** From asking tmux to start cairn until the prompt is on its screen. */
  onScreenMs: number;
  /** Ink's first frame (its status line), and the echo in the input line of a key typed as soon as the prompt showed. */
  ui: Mark;
  echo: Mark;
}

const echoKey = "Z";

async function firstPaint(program = bin): Promise<Paint> {
  return inFreshFolder(async (workspace, env) => {
    const markFile = join(workspace, "..", "paint-mark.json");
    const start = performance.now();
    const session = await openTui(workspace, { ...env, NODE_OPTIONS: `--require ${paintMark}`, PAINT_MARK_FILE: markFile, PAINT_ECHO_TEXT: echoKey }, ["--provider", "mock"], program);
    const control = await session.control();
    try {
      await waitForScreen(session, /What should cairn do\?/, 10_000, 2);
      const onScreenMs = performance.now() - start;
      // "interactive": a key typed now, until the input line shows it.
      await control.command(`send-keys -t ${session.name} -l ${echoKey}`);
      await waitForScreenControl(control, session, new RegExp(`› ${echoKey}`), 10_000);
      const marks = JSON.parse(readFileSync(markFile, "utf8")) as Mark & { ui: Mark; echo: Mark };
      return { onScreenMs, ...marks };
    } finally {
      control.close();
      await session.kill();
    }
  });
}

const describePaints = (label: string, runs: Paint[]): string => {
  const at = (pick: (paint: Paint) => number): string => median(runs.map(pick)).toFixed(0);
  return `${label}: first paint ${at((each) => each.sinceStartMs)} ms (CPU ${at((each) => each.cpuMs)}), interactive ${at((each) => each.echo.sinceStartMs)} ms, UI's first frame ${at((each) => each.ui.sinceStartMs)} ms (CPU ${at((each) => each.ui.cpuMs)}); runs paint/echo/UI: ${runs.map((each) => `${each.sinceStartMs.toFixed(0)}/${each.echo.sinceStartMs.toFixed(0)}/${each.ui.sinceStartMs.toFixed(0)}`).join(" ")}`;
};

// BENCH_PAINT_ONLY=1: only the first paint and interactive lines, of CAIRN_BENCH_BIN and, interleaved, CAIRN_BENCH_BASE_BIN.
if (process.env["BENCH_PAINT_ONLY"] === "1") {
  const baseBin = process.env["CAIRN_BENCH_BASE_BIN"];
  const ours: Paint[] = [];
  const base: Paint[] = [];
  try {
    await firstPaint();
    if (baseBin !== undefined) await firstPaint(baseBin);
    for (let repetition = 0; repetition < repetitions; repetition += 1) {
      if (baseBin !== undefined && repetition % 2 === 1) base.push(await firstPaint(baseBin));
      ours.push(await firstPaint());
      if (baseBin !== undefined && repetition % 2 === 0) base.push(await firstPaint(baseBin));
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  console.log(`node ${process.version}; ${repetitions} interleaved runs each, medians; tmux ${columns}x${rows}, --provider mock, warm code cache`);
  console.log(describePaints(bin, ours));
  if (baseBin !== undefined) console.log(describePaints(baseBin, base));
  process.exit(0);
}

const server = await startStreamServer(repetitions * 3 + 4, 16_384, serverProgram);
const headlessRuns: Sample[] = [];
const terminalRuns: Sample[] = [];
const typingRuns: Sample[] = [];
const paints: Paint[] = [];
try {
  // Warm-up: the code cache of both commands; not counted.
  await headless(server.url);
  await terminal(server.url, false);
  await firstPaint();
  for (let repetition = 0; repetition < repetitions; repetition += 1) {
    if (repetition % 2 === 0) {
      headlessRuns.push(await headless(server.url));
      terminalRuns.push(await terminal(server.url, false));
    } else {
      terminalRuns.push(await terminal(server.url, false));
      headlessRuns.push(await headless(server.url));
    }
    paints.push(await firstPaint());
  }
  typingRuns.push(await terminal(server.url, true));
} finally {
  server.stop();
  await rm(root, { recursive: true, force: true });
}
const turnRun: ManyTurnsRun = await runManyTurnsInTerminal({ bin, turns: manyTurns, heap: false });
const heapRun: ManyTurnsRun = await runManyTurnsInTerminal({ bin, turns: manyTurns, heap: true });

let failures = 0;
const verdict = (passes: boolean): string => {
  if (!passes) failures += 1;
  return passes ? "PASS" : "FAIL";
};
const h = { cpu: median(headlessRuns.map((run) => run.cpuMs)), rss: median(headlessRuns.map((run) => run.rssMb)), done: median(headlessRuns.map((run) => run.completionMs)) };
const t = { cpu: median(terminalRuns.map((run) => run.cpuMs)), rss: median(terminalRuns.map((run) => run.rssMb)), done: median(terminalRuns.map((run) => run.completionMs)) };
const keys = typingRuns.flatMap((run) => run.keyToEchoMs ?? []);
const keysSpawned = typingRuns.flatMap((run) => run.keyToEchoSpawnMs ?? []);
const paint = median(paints.map((each) => each.sinceStartMs));
console.log(`node ${process.version}, cairn ${bin}; 1 MiB of markdown in 16-character deltas, OpenAI chat, checkpoints off; ${repetitions} interleaved runs, medians`);
console.log(`${"".padEnd(28)} ${"CPU ms".padStart(8)} ${"RSS MB".padStart(8)} ${"done ms".padStart(8)}`);
console.log(`${"cairn run --json".padEnd(28)} ${h.cpu.toFixed(0).padStart(8)} ${h.rss.toFixed(0).padStart(8)} ${h.done.toFixed(0).padStart(8)}`);
console.log(`${`terminal UI (tmux ${columns}x${rows})`.padEnd(28)} ${t.cpu.toFixed(0).padStart(8)} ${t.rss.toFixed(0).padStart(8)} ${t.done.toFixed(0).padStart(8)}`);
console.log(`CPU: ${(t.cpu / h.cpu).toFixed(2)}x headless (goal <= 1.5x) ${verdict(t.cpu / h.cpu <= 1.5)}`);
console.log(`peak RSS: +${(t.rss - h.rss).toFixed(0)} MB over headless (goal <= +40 MB) ${verdict(t.rss - h.rss <= 40)}`);
console.log(`time to the completion: ${(t.done / h.done).toFixed(2)}x headless (goal <= 1.2x) ${verdict(t.done / h.done <= 1.2)}`);
console.log(
  `first paint: ${paint.toFixed(0)} ms after start (goal <= 250 ms) ${verdict(paint <= 250)}; CPU by then ${median(paints.map((each) => each.cpuMs)).toFixed(0)} ms; on tmux's screen ${median(paints.map((each) => each.onScreenMs)).toFixed(0)} ms after asking tmux to start it (runs, after start/CPU/on screen: ${paints.map((each) => `${each.sinceStartMs.toFixed(0)}/${each.cpuMs.toFixed(0)}/${each.onScreenMs.toFixed(0)}`).join(" ")})`,
);
console.log(
  `interactive: a key typed when the prompt showed is echoed ${median(paints.map((each) => each.echo.sinceStartMs)).toFixed(0)} ms after start; the UI's own first frame (Ink) ${median(paints.map((each) => each.ui.sinceStartMs)).toFixed(0)} ms, CPU by then ${median(paints.map((each) => each.ui.cpuMs)).toFixed(0)} ms (runs, echo/UI: ${paints.map((each) => `${each.echo.sinceStartMs.toFixed(0)}/${each.ui.sinceStartMs.toFixed(0)}`).join(" ")})`,
);
console.log(`key-to-echo while streaming: ${keys.map((value) => value.toFixed(0)).join(", ")} ms (goal < 50 ms) ${verdict(keys.length > 0 && Math.max(...keys) < 50)}`);
console.log(`  the same with a tmux process per key and per look at the screen (as measured before): ${keysSpawned.map((value) => value.toFixed(0)).join(", ")} ms`);
console.log(
  `runs: headless ${headlessRuns.map((run) => `${run.cpuMs.toFixed(0)}/${run.completionMs.toFixed(0)}`).join(" ")}; terminal ${terminalRuns.map((run) => `${run.cpuMs.toFixed(0)}/${run.completionMs.toFixed(0)}`).join(" ")} (CPU/done ms)`,
);
const lateFrom = manyTurns - 19;
const turns = perTurn(turnRun);
const earlyCpu = pairMedian(turns, 1, 20);
const lateCpu = pairMedian(turns, lateFrom, manyTurns);
console.log(
  `${manyTurns}-turn task in the UI: turns 1-20 ${earlyCpu.toFixed(1)} ms/turn, turns ${lateFrom}-${manyTurns} ${lateCpu.toFixed(1)} ms/turn: ${(lateCpu / earlyCpu).toFixed(2)}x (goal <= 1.2x) ${verdict(lateCpu / earlyCpu <= 1.2)}; wall ${(turnRun.wallMs / 1000).toFixed(1)} s`,
);
const heap = heapRun.heapAtRequest.map((bytes) => bytes / 1e6);
const earlyHeap = median(heap.slice(1, 21));
const lateHeap = median(heap.slice(lateFrom, manyTurns + 1));
console.log(
  `  live heap after a collection: turns 1-20 ${earlyHeap.toFixed(1)} MB, turns ${lateFrom}-${manyTurns} ${lateHeap.toFixed(1)} MB: ${(lateHeap / earlyHeap).toFixed(2)}x (goal <= 1.2x) ${verdict(lateHeap / earlyHeap <= 1.2)}`,
);
console.log(failures === 0 ? "tui-terminal: all goals met" : `tui-terminal: ${failures} goal(s) missed`);
process.exitCode = failures === 0 ? 0 : 1;
