/**
 * Issue 6: the terminal UI must stay responsive while a 1 MB answer streams at
 * full speed. CPU time of pushing a 1 MB markdown answer, in 16-character
 * partial updates of one message, through TuiHost and the real Ink UI (an
 * 80x30 terminal whose output is discarded), against writing each new piece of
 * the answer once to a discarded stream (and, unless BENCH_TUI_HEADLESS=0, the
 * headless text printer fed the same updates). Also reports how many times the UI rendered and the
 * longest the event loop was blocked between two 1 kB network-sized bursts.
 */
import { EventEmitter } from "node:events";
import { Writable } from "node:stream";
import type { Host } from "../src/task/contracts/host.js";
import type { UiMessage } from "../src/task/contracts/messages.js";
import { HeadlessHost } from "../src/ui/headless/index.js";
import type { TuiController } from "../src/ui/tui/controller.js";
import { renderTui } from "../src/ui/tui/render.js";
import { TuiHost } from "../src/ui/tui/tui-host.js";

const repetitions = Number(process.env["BENCH_REPETITIONS"] ?? 3);
const answerBytes = 1_048_576;
const updateSize = 16;
const updatesPerBurst = 64;

function answerText(): string {
  const lines: string[] = [];
  let size = 0;
  for (let index = 0; size < answerBytes; index += 1) {
    const line = index % 40 === 0 ? "```ts" : index % 40 === 20 ? "```" : `- step ${index}: the **answer** explains the fix to \`add\` and why the test fails`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n");
}

class DiscardingTerminal extends EventEmitter {
  readonly isTTY = true;
  readonly columns = 80;
  readonly rows = 30;
  bytes = 0;
  write(chunk: string): boolean {
    this.bytes += chunk.length;
    return true;
  }
}

class IdleStdin extends EventEmitter {
  readonly isTTY = true;
  setEncoding(): void {}
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
  read(): null {
    return null;
  }
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Feeds the answer and returns the longest pause between bursts (the loop was busy rendering). */
async function feed(host: Host, text: string): Promise<number> {
  let longest = 0;
  let updates = 0;
  for (let end = updateSize; end < text.length + updateSize; end += updateSize) {
    const message: UiMessage = { id: "answer", ts: 0, type: "say", say: "text", text: text.slice(0, end), partial: true };
    host.onMessage(message);
    updates += 1;
    if (updates % updatesPerBurst === 0) {
      const started = performance.now();
      await nextTurn();
      longest = Math.max(longest, performance.now() - started);
    }
  }
  host.onMessage({ id: "answer", ts: 0, type: "say", say: "text", text, partial: false });
  return longest;
}

const controller: TuiController = {
  submit: () => {},
  abort: () => {},
  exit: () => {},
  toggleMode: () => "act",
  status: () => ({ model: "bench", mode: "act", tokensUsed: 0, contextWindow: 200_000, cost: 0, busy: true }),
};

async function runTui(text: string): Promise<{ cpu: number; renders: number; longestMs: number; bytes: number }> {
  const host = new TuiHost();
  const terminal = new DiscardingTerminal();
  const instance = renderTui({
    controller,
    host,
    stdout: terminal as unknown as NodeJS.WriteStream,
    stdin: new IdleStdin() as unknown as NodeJS.ReadStream,
    stderr: new DiscardingTerminal() as unknown as NodeJS.WriteStream,
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  const start = process.cpuUsage();
  const longestMs = await feed(host, text);
  // the last frame is at most one throttle interval away
  await new Promise((resolve) => setTimeout(resolve, 100));
  const cpu = cpuMs(start);
  instance.unmount();
  return { cpu, renders: host.publishCount, longestMs, bytes: terminal.bytes };
}

async function runHeadless(text: string): Promise<number> {
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  const host = new HeadlessHost({ json: false, stdout: sink, stderr: sink, stdin: undefined, taskId: "bench", onAsk: "fail", yes: true, color: true });
  const start = process.cpuUsage();
  await feed(host, text);
  await new Promise((resolve) => setTimeout(resolve, 100));
  return cpuMs(start);
}

/** Ink patches console.* while mounted; write the results directly. */
function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** The least any terminal surface does: write each new piece of the answer once. */
async function runBare(text: string): Promise<number> {
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  let written = 0;
  const host: Host = {
    onMessage: (message) => {
      sink.write(message.text.slice(written));
      written = message.text.length;
    },
    answerAsk: () => Promise.reject(new Error("no asks in this bench")),
  };
  const start = process.cpuUsage();
  await feed(host, text);
  return cpuMs(start);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const text = answerText();
await runTui(text.slice(0, 100_000));
await runHeadless(text.slice(0, 100_000));
const tui: Array<Awaited<ReturnType<typeof runTui>>> = [];
const headless: number[] = [];
const bare: number[] = [];
const withHeadless = process.env["BENCH_TUI_HEADLESS"] !== "0";
for (let repetition = 0; repetition < repetitions; repetition += 1) {
  tui.push(await runTui(text));
  bare.push(await runBare(text));
  if (withHeadless) headless.push(await runHeadless(text));
}
const tuiCpu = median(tui.map((run) => run.cpu));
const bareCpu = median(bare);
print(`1 MB answer in ${Math.ceil(text.length / updateSize)} updates of ${updateSize} characters, ${repetitions} repetitions (median)`);
print(
  `TUI (TuiHost + Ink, 80x30): ${tuiCpu.toFixed(0)} ms CPU, renders ${median(tui.map((run) => run.renders))}, longest blocked turn ${median(tui.map((run) => run.longestMs)).toFixed(0)} ms, ${(median(tui.map((run) => run.bytes)) / 1e6).toFixed(1)} MB written`,
);
print(`bare (write each new piece once): ${bareCpu.toFixed(0)} ms CPU; ratio TUI / bare: ${(tuiCpu / bareCpu).toFixed(1)}`);
if (withHeadless) {
  const headlessCpu = median(headless);
  print(`headless text printer: ${headlessCpu.toFixed(0)} ms CPU; ratio TUI / headless: ${(tuiCpu / headlessCpu).toFixed(2)}`);
}
