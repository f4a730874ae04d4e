/**
 * Issue #19: Redis is a dependency of the fleet commands only. `--version`,
 * `run` and the terminal UI never load BullMQ or ioredis (checked by a
 * resolve hook that records every module they load). Issue #36: nor the
 * OpenTelemetry SDK, unless telemetry is configured (the recorder also sees the
 * CLI bundle's chunks, where the SDK is bundled, being read). Nor do they load the cloud
 * providers' SDKs (issue 34: AWS, Azure, Google auth), which only their provider loads.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cairnBin } from "../cli/test-support/cli-harness.js";
import { startTmux, tmuxAvailable } from "../ui/tui/test-support/tmux.js";

const recorder = fileURLToPath(new URL("./test-support/record-imports.js", import.meta.url));
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "cairn-lazy-"));
});
afterAll(async () => {
  // A terminal's cairn may still be saving its code cache in the data folder after tmux closed it (SIGHUP).
  await rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
});

function loaded(args: string[], name: string, extraEnv: NodeJS.ProcessEnv = {}): { status: number | null; modules: Promise<string> } {
  const record = join(root, `${name}.txt`);
  const env: NodeJS.ProcessEnv = { ...process.env, ...extraEnv, CAIRN_RECORD_IMPORTS: record, CAIRN_HOME: join(root, "data"), XDG_CONFIG_HOME: join(root, "config"), CI: "true" };
  const result = spawnSync(process.execPath, ["--import", recorder, ...args], { cwd: root, env, encoding: "utf8", timeout: 60_000 });
  if (result.status !== 0) throw new Error(`${args.join(" ")} exited with ${result.status}: ${result.stderr}`);
  return { status: result.status, modules: readFile(record, "utf8").catch(() => "") };
}

describe("the fleet's dependencies are loaded lazily", () => {
  it("the recorder sees bullmq and ioredis when a fleet command runs (so the checks below can fail)", { timeout: 60_000 }, async () => {
    const record = join(root, "fleet.txt");
    // It keeps trying to reach that Redis: it is stopped once it has loaded ioredis (or after 30 s, however loaded the machine).
    const child = spawn(process.execPath, ["--import", recorder, cairnBin, "queue", "status", "--redis", "redis://127.0.0.1:1"], {
      cwd: root,
      env: { ...process.env, CAIRN_RECORD_IMPORTS: record, XDG_CONFIG_HOME: join(root, "config") },
      stdio: "ignore",
    });
    const recorded = (): Promise<string> => readFile(record, "utf8").catch(() => "");
    const deadline = Date.now() + 30_000;
    while (!/ioredis/.test(await recorded()) && Date.now() < deadline && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 100));
    child.kill("SIGKILL");
    expect(await recorded()).toMatch(/ioredis/);
  });

  it("cairn --version and cairn run load neither bullmq, ioredis nor OpenTelemetry; OpenTelemetry only once an endpoint is set", async () => {
    expect(await loaded([cairnBin, "--version"], "version").modules).toBe("");
    const scenario = join(root, "scenario.json");
    await writeFile(scenario, JSON.stringify({ turns: [{ text: "<attempt_completion>\n<result>\ndone\n</result>\n</attempt_completion>" }] }));
    const run = [cairnBin, "run", "--provider", "mock", "--scenario", scenario, "--yes", "say done"];
    expect(await loaded(run, "run").modules).toBe("");
    // A collector that is not there: the run still ends, within about a second of its end.
    const started = Date.now();
    // In the built CLI, OpenTelemetry is the chunk dist/cli/telemetry.cjs (scripts/bundle.js).
    expect(await loaded(run, "traced", { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1" }).modules).toMatch(/dist\/cli\/telemetry\.cjs|node_modules\/@opentelemetry\//);
    expect(Date.now() - started).toBeLessThan(15_000);
    // The chunk's compiled code is kept for the next traced start (src/launch/launch.ts registerChunks).
    expect((await readdir(join(root, "data", "compile-cache"))).filter((name) => name.startsWith("bundle-chunk-telemetry."))).toHaveLength(1);
  });

  it.skipIf(!tmuxAvailable())("the terminal UI, started in a real terminal, loads neither bullmq nor ioredis", { timeout: 90_000 }, async () => {
    const record = join(root, "tui.txt");
    const terminal = await startTmux({
      command: [process.execPath, "--import", recorder, cairnBin, "--provider", "mock"],
      cwd: root,
      env: { CAIRN_RECORD_IMPORTS: record, CAIRN_HOME: join(root, "data"), XDG_CONFIG_HOME: join(root, "config") },
    });
    try {
      await terminal.waitFor(/Tab mode/, { timeoutMs: 60_000 });
    } finally {
      await terminal.kill();
    }
    expect(await readFile(record, "utf8").catch(() => "")).toBe("");
  });
});
