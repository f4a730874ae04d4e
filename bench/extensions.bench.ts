/**
 * Extensibility benchmark (issue 15). Run with `npm run bench -- extensions`.
 * Ratios of two timings from the same run, rounds interleaved. Exits with 1
 * when a goal is missed.
 *
 * 1. Hooks cost nothing where none match: read_file through the hook wrapper,
 *    with hooks configured only for Bash, against the bare ToolExecutor.
 * 2. Rules scale with the folders in play, not the files: the system prompt of a
 *    task that touched 400 files in 40 folders (8 nested AGENTS.md, 10
 *    conditional rules) against one that touched one file in each of them.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { HookRunner } from "../src/hooks/hook-runner.js";
import { withToolHooks } from "../src/hooks/tool-hooks.js";
import type { ToolUseBlock } from "../src/parser/types.js";
import { createPromptBuilder } from "../src/prompt/system-prompt.js";
import { TaskRules } from "../src/prompt/task-rules.js";
import { createToolExecutor } from "../src/tools/create-tool-executor.js";
import { createRecordingContext } from "../src/tools/test-support/recording-context.js";

const ROUNDS = 9;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function time(run: () => Promise<void>, times: number): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < times; index += 1) await run();
  return performance.now() - started;
}

const workspace = await mkdtemp(join(tmpdir(), "cairn-bench-extensions-"));
let failed = false;
try {
  await writeFile(join(workspace, "file.txt"), "hello\n".repeat(200));
  await writeFile(join(workspace, "AGENTS.md"), "Root rule.\n");
  const bare = createToolExecutor({ workspace, yes: true, allowOutsideWrites: false, protocol: "xml" });
  const runner = new HookRunner({
    hooks: [
      { event: "PreToolUse", configuredAs: "PreToolUse", matcher: "Bash", command: "exit 2", timeoutMs: 60_000, scope: "user", origin: { kind: "settings", file: "bench" }, dialect: "claude-code", fingerprint: "x" },
    ],
    cwd: workspace,
    basePayload: () => ({}),
  });
  const hooked = withToolHooks(bare, { runner, workspace, stopTask: () => {} });
  const read = { type: "tool_use", id: "r", name: "read_file", params: { path: "file.txt" }, partial: false } as ToolUseBlock;
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const base = await time(() => bare.executeTool(read, createRecordingContext()).then(() => undefined), 200);
    const wrapped = await time(() => hooked.executeTool(read, createRecordingContext()).then(() => undefined), 200);
    ratios.push(wrapped / base);
  }
  const hookRatio = median(ratios);
  console.log(`read_file through hooks that do not match / bare executor: ${hookRatio.toFixed(2)} (goal <= 1.5)`);
  if (hookRatio > 1.5) failed = true;

  for (let folder = 0; folder < 40; folder += 1) {
    const path = join(workspace, "packages", `p${folder}`, "src");
    await mkdir(path, { recursive: true });
    if (folder % 5 === 0) await writeFile(join(workspace, "packages", `p${folder}`, "AGENTS.md"), `Rule for package ${folder}.\n`);
    for (let file = 0; file < 10; file += 1) await writeFile(join(path, `f${file}.ts`), "export {};\n");
  }
  await mkdir(join(workspace, ".clinerules"), { recursive: true });
  for (let rule = 0; rule < 10; rule += 1) await writeFile(join(workspace, ".clinerules", `r${rule}.md`), `---\npaths: ["packages/p${rule}/**/*.ts"]\n---\nConditional ${rule}.\n`);
  const fresh = new TaskRules({ workspace });
  for (let folder = 0; folder < 40; folder += 1) fresh.touch(`packages/p${folder}/src/f0.ts`);
  const busy = new TaskRules({ workspace });
  for (let folder = 0; folder < 40; folder += 1) for (let file = 0; file < 10; file += 1) busy.touch(`packages/p${folder}/src/f${file}.ts`);
  const prompt = (rules: TaskRules) =>
    createPromptBuilder({ workspace, toolExecutor: bare, ruleScope: { touched: rules.touched, disabled: rules.disabled } }).systemPrompt({ mode: "act", protocol: "xml", mcpSection: "" });
  const busyText = await prompt(busy);
  if (!busyText.includes("Rule for package 35.") || !busyText.includes("Conditional 9.")) throw new Error("the busy prompt lacks its rules");
  const promptRatios: number[] = [];
  let busyMs = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const base = await time(() => prompt(fresh).then(() => undefined), 10);
    const loaded = await time(() => prompt(busy).then(() => undefined), 10);
    busyMs = loaded / 10;
    promptRatios.push(loaded / base);
  }
  const promptRatio = median(promptRatios);
  console.log(`system prompt after 400 files in 40 folders were touched / after 40 files, one per folder: ${promptRatio.toFixed(2)} (goal <= 1.5); ${busyMs.toFixed(1)} ms per prompt`);
  if (promptRatio > 1.5) failed = true;
} finally {
  await rm(workspace, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
