/**
 * A data folder with a long history, for bench/history.bench.ts: one real task is
 * run by `bin/cairn run` against the scripted model (reads a file, searches, runs a
 * command, completes), and its folder is copied under new ids and titles, spread
 * over several workspaces; one task in a hundred was killed while running (its log
 * ends without a status entry, and nobody holds its lock).
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startScriptedServer } from "../src/llm/scripted/server.js";

export const cairnBin = process.env["CAIRN_BENCH_BIN"] ?? fileURLToPath(new URL("../bin/cairn", import.meta.url));

const seedTurns = [
  { text: "Let me look at the code first.\n<read_file>\n<path>src/app.ts</path>\n</read_file>" },
  { text: "Now the callers.\n<search_files>\n<path>.</path>\n<regex>handler</regex>\n</search_files>" },
  { text: "Running the tests.\n<execute_command>\n<command>ls -la src</command>\n<requires_approval>false</requires_approval>\n</execute_command>" },
  { text: "<attempt_completion>\n<result>The handler now checks its input; the tests pass.</result>\n</attempt_completion>" },
];

/** Runs one real task into `dataDir` and returns its id. */
async function seedTask(dataDir: string, workspace: string): Promise<string> {
  mkdirSync(join(workspace, "src"), { recursive: true });
  writeFileSync(join(workspace, "src", "app.ts"), Array.from({ length: 120 }, (_, index) => `export function handler${index}(input: string) { return input.trim(); }`).join("\n"));
  const server = await startScriptedServer({ scenario: { turns: seedTurns } });
  try {
    const env = { ...process.env, CAIRN_HOME: dataDir, XDG_CONFIG_HOME: join(dataDir, "..", "config") };
    const args = [cairnBin, "run", "--yes", "--no-checkpoints", "--provider", "anthropic", "--base-url", server.url, "--api-key", "bench", "Fix the input handling of the request handlers"];
    // Asynchronous: the scripted server answers in this process.
    const { spawn } = await import("node:child_process");
    const child = spawn(process.execPath, args, { cwd: workspace, env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const status = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    if (status !== 0) throw new Error(`the seed task failed (${status}): ${stderr}`);
    const taskId = /^task (\S+)$/m.exec(stderr)?.[1];
    if (taskId === undefined) throw new Error(`no task id in: ${stderr}`);
    return taskId;
  } finally {
    await server.close();
  }
}

const verbs = ["Fix", "Add", "Refactor", "Document", "Test", "Speed up", "Remove", "Rename"];
const things = ["the login form", "the API client", "the cache layer", "the build script", "error messages", "the parser", "the CLI flags", "the database migrations"];

export interface LongHistory {
  /** Workspaces the tasks were run in; the first holds `tasks / workspaces.length` of them. */
  workspaces: string[];
  seedLogBytes: number;
}

/** Fills `dataDir` with `count` tasks copied from one real task. */
export async function fillLongHistory(options: { root: string; dataDir: string; count: number; workspaceCount: number }): Promise<LongHistory> {
  const workspaces = Array.from({ length: options.workspaceCount }, (_, index) => join(options.root, `project-${index}`));
  for (const workspace of workspaces) mkdirSync(workspace, { recursive: true });
  const seedId = await seedTask(join(options.root, "seed-data"), workspaces[0]!);
  const seedFolder = join(options.root, "seed-data", "tasks", seedId);
  const seedLog = join(seedFolder, "log.jsonl");
  const seedText = readFileSync(seedLog, "utf8");
  // A killed task: its log stops before the status entry.
  const killedText = seedText
    .split("\n")
    .filter((line) => !line.startsWith('{"kind":"status"'))
    .join("\n");
  const killedLog = join(options.root, "killed-log.jsonl");
  writeFileSync(killedLog, killedText);
  const start = Date.UTC(2025, 0, 1);
  for (let index = 0; index < options.count; index += 1) {
    const createdAt = start + index * 37 * 60_000;
    const stamp = new Date(createdAt).toISOString().slice(0, 19).replace(/:/g, "-");
    const taskId = `${stamp}-${index.toString(36).padStart(6, "0")}`;
    const folder = join(options.dataDir, "tasks", taskId);
    mkdirSync(folder, { recursive: true });
    const task = `${verbs[index % verbs.length]} ${things[(index >> 3) % things.length]} (ticket ${1000 + index})`;
    const meta = { taskId, task, workspace: workspaces[index % workspaces.length], createdAt };
    writeFileSync(join(folder, "meta.json"), `${JSON.stringify(meta, null, 1)}\n`);
    copyFileSync(index % 100 === 99 ? killedLog : seedLog, join(folder, "log.jsonl"));
  }
  return { workspaces, seedLogBytes: seedText.length };
}

/** Runs `bin/cairn` once to its end; throws when it fails. */
export function runCairn(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): string {
  const result = spawnSync(process.execPath, [cairnBin, ...args], { cwd: options.cwd, env: options.env, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`cairn ${args.join(" ")} failed (${result.status}): ${result.stderr}`);
  return result.stdout;
}
