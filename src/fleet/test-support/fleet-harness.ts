/**
 * A fleet on this machine for end-to-end tests: a real Redis, real `cairn
 * worker` processes (bin/cairn, so run `npm run build` first), a git
 * repository, and one scripted LLM server per job (the scripted server answers
 * requests in arrival order, so jobs running side by side each need their own).
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import { startCli, runCli, type CliRun } from "../../cli/test-support/cli-harness.js";
import { startScriptedServer, type ScriptedServer } from "../../llm/scripted/server.js";
import type { Scenario } from "../../llm/scripted/scenario.js";
import { startTestRedis, type TestRedis } from "./redis-server.js";
import type { JobReport } from "../queue-inspect.js";

export interface FleetSandbox {
  root: string;
  repo: string;
  env: NodeJS.ProcessEnv;
  redis: TestRedis;
  servers: ScriptedServer[];
  workers: CliRun[];
  serve(scenario: Scenario): Promise<ScriptedServer>;
  startWorker(name: string, extra?: string[]): Promise<CliRun>;
  /** `extraEnv`: variables for this command only (a `TRACEPARENT`). */
  cli(args: string[], extraEnv?: NodeJS.ProcessEnv): Promise<{ status: number; stdout: string; stderr: string }>;
  results(): Promise<JobReport[]>;
  waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs?: number): Promise<T>;
  cleanup(): Promise<void>;
}

type FleetSandboxOptions = { fleet?: Record<string, unknown>; config?: Record<string, unknown>; files?: Record<string, string> };

/** Registers clean-up in the calling test file; the returned function makes this test's fleet sandbox. */
export function useFleetSandbox(): (options?: FleetSandboxOptions) => Promise<FleetSandbox> {
  let current: FleetSandbox | undefined;
  afterEach(async () => {
    await current?.cleanup();
    current = undefined;
  });
  return async (options) => (current = await makeFleetSandbox(options));
}

export async function makeFleetSandbox(options: FleetSandboxOptions = {}): Promise<FleetSandbox> {
  const root = await mkdtemp(join(tmpdir(), "cairn-fleet-"));
  const repo = join(root, "repo");
  const configDir = join(root, "config");
  await mkdir(join(configDir, "cairn"), { recursive: true });
  await mkdir(repo, { recursive: true });
  for (const [path, content] of Object.entries(options.files ?? { "README.md": "# a small repository\n" })) {
    await mkdir(join(repo, path, ".."), { recursive: true });
    await writeFile(join(repo, path), content);
  }
  const gitEnv = { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@localhost", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@localhost" };
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: repo, env: gitEnv });
  execFileSync("git", ["add", "-A"], { cwd: repo, env: gitEnv });
  execFileSync("git", ["commit", "-qm", "base"], { cwd: repo, env: gitEnv });
  const redis = await startTestRedis();
  await writeFile(join(configDir, "cairn", "config.json"), JSON.stringify({ retry: { delaysMs: [10, 20, 40] }, ...options.config }));
  await writeFile(join(configDir, "cairn", "fleet.json"), JSON.stringify({ allow: { baseUrls: ["http://127.0.0.1:*"] }, lockDurationMs: 4000, stalledIntervalMs: 1500, ...options.fleet }));
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    if (name.startsWith("CAIRN_") || name.endsWith("_API_KEY") || name.endsWith("_BASE_URL")) delete env[name];
  }
  Object.assign(env, {
    CAIRN_HOME: join(root, "data"),
    XDG_CONFIG_HOME: configDir,
    CAIRN_REDIS_URL: redis.url,
    // The scripted server ignores keys; the workers share this one, so they share its limits.
    ANTHROPIC_API_KEY: "scripted-test-key",
    NO_COLOR: "1",
  });
  const servers: ScriptedServer[] = [];
  const workers: CliRun[] = [];
  const sandbox: FleetSandbox = {
    root,
    repo,
    env,
    redis,
    servers,
    workers,
    serve: async (scenario) => {
      const server = await startScriptedServer({ scenario });
      servers.push(server);
      return server;
    },
    startWorker: async (name, extra = []) => {
      const worker = startCli(["worker", "--yes", "--provider", "anthropic", "--name", name, "--work-dir", root, ...extra], { env, cwd: root, keepStdinOpen: true });
      workers.push(worker);
      await worker.waitForOutput(/listening on queue/);
      return worker;
    },
    cli: (args, extraEnv = {}) => runCli(args, { env: { ...env, ...extraEnv }, cwd: root }),
    results: async () => {
      const run = await runCli(["queue", "results", "--json"], { env, cwd: root });
      if (run.status !== 0) throw new Error(`queue results failed: ${run.stderr}`);
      return run.stdout
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as JobReport);
    },
    waitFor: async (what, probe, timeoutMs = 60_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = await probe();
        if (value !== undefined && value !== false) return value;
        if (Date.now() > deadline) {
          const logs = workers.map((worker) => worker.stdout + worker.stderr).join("\n---\n");
          throw new Error(`timed out waiting for ${what}\nworker output:\n${logs}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
    cleanup: async () => {
      for (const worker of workers) if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill("SIGKILL");
      await Promise.all(workers.map((worker) => worker.exit));
      await Promise.all(servers.map((server) => server.close()));
      await redis.stop();
      await rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
  return sandbox;
}

/** Writes `name` with `content`, then finishes: two requests. */
export function writeThenComplete(name: string, content: string, extra: { delayMs?: number } = {}): Scenario {
  return {
    ...(extra.delayMs ? { delayMs: extra.delayMs } : {}),
    turns: [{ text: `<write_to_file>\n<path>${name}</path>\n<content>\n${content}\n</content>\n</write_to_file>` }, { text: `<attempt_completion>\n<result>\nWrote ${name}\n</result>\n</attempt_completion>` }],
  };
}
