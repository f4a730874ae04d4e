/**
 * Context management benchmark (issue #13). Run with `npm run bench -- context`.
 *
 * A task of 1,000 turns (each an xml read_file call and a ~3 KB result) is driven
 * through the ContextManager exactly as the Task drives it: before each request,
 * `beforeRequest()` (accounting with gpt-tokenizer, the compaction decision, and a
 * compaction when the budget is spent) and the request object itself. The model is
 * faked (an instant summary): only cairn's own work is measured.
 *
 * 1. Time to build a request at turn ~1,000 against turn ~10 (median of turns 6-15 and
 *    991-1,000 over 5 runs, turns that compacted left out and reported on their own).
 *    Goal: at most 2.
 * 2. Heap after a forced GC every 100 turns: turn 1,000 against turn 200. Goal: at most 1.25
 *    (flat: compaction bounds the conversation, and the cache of estimates is weak).
 */
import { performance } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { ContextManager } from "../src/context/context-manager.js";
import { loadTokenizer } from "../src/context/token-estimate.js";
import type { Replacement } from "../src/context/contract.js";
import type { Chunk, Message, Provider, ProviderRequest } from "../src/llm/types.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const TURNS = 1_000;
const RUNS = 5;
const TIME_GOAL = 2;
const MEMORY_GOAL = 1.25;

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const words = "parser token cache value compute buffer stream index module export function const return await".split(" ");
/** ~3 KB of varied source-like text, different for every turn. */
function fileContent(turn: number): string {
  const lines: string[] = [];
  for (let line = 0; lines.join("\n").length < 3_000; line += 1) {
    const word = words[(turn * 7 + line * 3) % words.length] ?? "x";
    lines.push(`export const ${word}${turn}_${line} = ${word}(${turn * 31 + line}, "${word}-${line}");`);
  }
  return lines.join("\n");
}

const summaryText = "## Task\nRead every file.\n## Decisions\nNone.\n## Files\nRead many.\n## Commands\nNone.\n## Errors\nNone.\n## Open checklist items\nNone.\n## Next step\nRead on.";

const provider: Provider = {
  name: "bench",
  model: { id: "bench-model", contextWindow: 200_000, maxOutputTokens: 32_000, inputPrice: 0, outputPrice: 0, supportsImages: false, supportsReasoning: false },
  createMessage(_request: ProviderRequest): AsyncIterable<Chunk> {
    return (async function* () {
      yield { type: "text", text: summaryText };
    })();
  },
};

interface RunResult {
  early: number[];
  late: number[];
  compactionTurns: number[];
  compactionMs: number[];
  heapByHundred: number[];
  lengthAtEnd: number;
}

async function runTask(measureMemory: boolean): Promise<RunResult> {
  const history: Message[] = [];
  let compactions = 0;
  const manager = new ContextManager({ provider, readFile: async (path) => `// ${path}\n${fileContent(0)}` });
  manager.attach({
    messages: () => history,
    replace: async (update: (current: readonly Message[]) => Replacement | undefined) => {
      const replacement = update(history.slice());
      if (replacement === undefined) return false;
      history.splice(0, history.length, ...replacement.messages);
      if (replacement.entry.kind === "api_compact") compactions += 1;
      return true;
    },
    say: () => {},
    lastContextTokens: () => 0,
    signal: new AbortController().signal,
  });
  const result: RunResult = { early: [], late: [], compactionTurns: [], compactionMs: [], heapByHundred: [], lengthAtEnd: 0 };
  const systemPrompt = "You are cairn.".repeat(200);
  history.push({ role: "user", content: [{ type: "text", text: "<task>\nRead every file of the project and report.\n</task>" }] });
  for (let turn = 1; turn <= TURNS; turn += 1) {
    const path = `src/file${turn % 400}.ts`;
    history.push({ role: "assistant", content: [{ type: "text", text: `Reading ${path}.\n<read_file>\n<path>${path}</path>\n</read_file>` }] });
    history.push({
      role: "user",
      content: [
        { type: "text", text: `[read_file for '${path}'] Result:` },
        { type: "text", text: fileContent(turn) },
        { type: "text", text: `<environment_details>\n# Current time\n${new Date(turn * 1000).toISOString()}\n</environment_details>` },
      ],
    });
    const before = compactions;
    const start = performance.now();
    await manager.beforeRequest();
    const request = { systemPrompt, messages: history, signal: new AbortController().signal, meta: manager.requestMeta() };
    const elapsed = performance.now() - start;
    if (request.messages.length === 0) throw new Error("empty request");
    if (compactions > before) {
      result.compactionTurns.push(turn);
      result.compactionMs.push(elapsed);
    } else if (turn >= 6 && turn <= 15) {
      result.early.push(elapsed);
    } else if (turn > TURNS - 10) {
      result.late.push(elapsed);
    }
    if (measureMemory && turn % 100 === 0) {
      gc();
      result.heapByHundred.push(process.memoryUsage().heapUsed);
    }
  }
  result.lengthAtEnd = history.length;
  return result;
}

async function main(): Promise<void> {
  await loadTokenizer();
  await runTask(false); // warm-up: JIT and the tokenizer's caches
  const runs: RunResult[] = [];
  for (let run = 0; run < RUNS; run += 1) runs.push(await runTask(run === 0));
  const early = median(runs.flatMap((run) => run.early));
  const late = median(runs.flatMap((run) => run.late));
  const ratio = late / early;
  const heap = runs[0]?.heapByHundred ?? [];
  const heap200 = heap[1] ?? Number.NaN;
  const heap1000 = heap[9] ?? Number.NaN;
  const memoryRatio = heap1000 / heap200;
  const first = runs[0];
  console.log(`turns per run: ${TURNS}, runs: ${RUNS}; compactions per run: ${first?.compactionTurns.length} (at turns ${first?.compactionTurns.join(", ")})`);
  console.log(`messages in the conversation at turn 1,000: ${first?.lengthAtEnd}`);
  console.log(`build a request, turn ~10: ${(early * 1000).toFixed(0)} us; turn ~1,000: ${(late * 1000).toFixed(0)} us; ratio ${ratio.toFixed(2)} (goal <= ${TIME_GOAL})`);
  console.log(`a turn that compacts (fake model): median ${median(runs.flatMap((run) => run.compactionMs)).toFixed(1)} ms`);
  console.log(`heap after GC every 100 turns (MB): ${heap.map((bytes) => (bytes / 1e6).toFixed(1)).join(", ")}`);
  console.log(`heap turn 1,000 / turn 200: ${memoryRatio.toFixed(2)} (goal <= ${MEMORY_GOAL})`);
  if (!(ratio <= TIME_GOAL) || !(memoryRatio <= MEMORY_GOAL)) process.exitCode = 1;
}

await main();
