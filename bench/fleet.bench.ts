/**
 * The fleet (issue #19): one hundred scripted tasks run by 1, 2 and 4 worker
 * processes through BullMQ on a real redis-server, against the same hundred
 * tasks run by `cairn eval --local` with as many lanes, in the same run.
 * Reports throughput and the queue's overhead per task:
 * (fleet wall time - local wall time) x lanes / tasks.
 * Needs `npm run build` (it runs bin/cairn) and redis-server.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { hasRedisServer, startTestRedis } from "../src/fleet/test-support/redis-server.js";

const bin = fileURLToPath(new URL("../bin/cairn", import.meta.url));
const tasks = Number(process.env["BENCH_FLEET_TASKS"] ?? 100);
const laneCounts = (process.env["BENCH_FLEET_LANES"] ?? "1,2,4").split(",").map(Number);

if (!hasRedisServer) {
  console.warn("redis-server is missing: the fleet benchmark is skipped");
  process.exit(0);
}

const root = await mkdtemp(join(tmpdir(), "cairn-bench-fleet-"));
const redis = await startTestRedis();
const repo = join(root, "repo");
await mkdir(join(root, "config", "cairn"), { recursive: true });
await mkdir(repo);
await writeFile(join(repo, "README.md"), "# bench\n");
const gitEnv = { ...process.env, GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@localhost", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@localhost" };
execFileSync("git", ["init", "-q"], { cwd: repo, env: gitEnv });
execFileSync("git", ["add", "-A"], { cwd: repo, env: gitEnv });
execFileSync("git", ["commit", "-qm", "base"], { cwd: repo, env: gitEnv });

const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: join(root, "config"), CAIRN_HOME: join(root, "data"), CAIRN_REDIS_URL: redis.url };
for (const name of Object.keys(env)) if (name.endsWith("_API_KEY")) delete env[name];

const suite = join(root, "suite.json");
await writeFile(
  suite,
  JSON.stringify({
    cases: Array.from({ length: tasks }, (_, index) => ({
      name: `task-${index}`,
      repo,
      task: `write out-${index}.txt`,
      scenario: {
        turns: [
          { text: `<write_to_file>\n<path>out-${index}.txt</path>\n<content>\ntask ${index}\n</content>\n</write_to_file>` },
          { text: `<attempt_completion>\n<result>\nwrote out-${index}.txt\n</result>\n</attempt_completion>` },
        ],
      },
    })),
  }),
);

function run(args: string[]): Promise<{ ms: number; status: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [bin, ...args], { env, cwd: root, stdio: ["ignore", "pipe", "ignore"] });
    let stdout = "";
    child.stdout.on("data", (data: Buffer) => {
      stdout += data.toString();
    });
    child.on("error", reject);
    child.on("exit", (status) => resolve({ ms: performance.now() - start, status, stdout }));
  });
}

function startWorker(queue: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, "worker", "--yes", "--queue", queue], { env, cwd: root, stdio: ["ignore", "pipe", "inherit"] });
    child.stdout.on("data", (data: Buffer) => {
      if (data.toString().includes("listening on queue")) resolve(child);
    });
    child.on("error", reject);
  });
}

function passed(stdout: string): number {
  const report = JSON.parse(stdout) as { totals: { passed: number }; cases: Array<{ name: string; pass: boolean; error?: string }> };
  for (const entry of report.cases) if (!entry.pass) console.error(`failed: ${entry.name}: ${entry.error ?? "(check)"}`);
  return report.totals.passed;
}

const rows: string[] = [];
try {
  for (const lanes of laneCounts) {
    const local = await run(["eval", suite, "--local", "--yes", "--concurrency", String(lanes), "--json"]);
    const queue = `bench-${lanes}`;
    const workers = await Promise.all(Array.from({ length: lanes }, () => startWorker(queue)));
    const fleet = await run(["eval", suite, "--redis", redis.url, "--queue", queue, "--json"]);
    for (const worker of workers) worker.kill("SIGKILL");
    const overheadMs = ((fleet.ms - local.ms) * lanes) / tasks;
    rows.push(
      `| ${lanes} | ${passed(local.stdout)}/${tasks} in ${(local.ms / 1000).toFixed(1)} s (${((tasks * 1000) / local.ms).toFixed(2)}/s) | ` +
        `${passed(fleet.stdout)}/${tasks} in ${(fleet.ms / 1000).toFixed(1)} s (${((tasks * 1000) / fleet.ms).toFixed(2)}/s) | ${(fleet.ms / local.ms).toFixed(2)} | ${overheadMs.toFixed(0)} ms |`,
    );
    console.log(rows.at(-1));
  }
} finally {
  await redis.stop();
  await rm(root, { recursive: true, force: true });
}
console.log("\n| lanes (workers) | cairn eval --local | cairn eval --redis (workers) | fleet / local | queue overhead per task |");
console.log("|---|---|---|---|---|");
for (const row of rows) console.log(row);
