/**
 * Issue #19, the queue end to end: real redis-server, real `cairn worker`
 * processes, real git, scripted LLM servers over HTTP.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hasRedisServer } from "./test-support/redis-server.js";
import { useFleetSandbox, writeThenComplete } from "./test-support/fleet-harness.js";
import { withoutSandboxNotice } from "../cli/test-support/cli-harness.js";

const fleetSandbox = useFleetSandbox();

describe.skipIf(!hasRedisServer)("cairn queue and cairn worker", () => {
  it("three workers and thirty scripted jobs: every job completes, each exactly once, with its own patch", async () => {
    const fleet = await fleetSandbox();
    await Promise.all(["w1", "w2", "w3"].map((name) => fleet.startWorker(name)));
    const lines: string[] = [];
    const servers = [];
    for (let index = 0; index < 30; index += 1) {
      const server = await fleet.serve(writeThenComplete(`out-${index}.txt`, `job ${index}`));
      servers.push(server);
      lines.push(JSON.stringify({ repo: fleet.repo, task: `write out-${index}.txt`, name: `job-${index}`, baseUrl: server.url }));
    }
    const file = join(fleet.root, "tasks.jsonl");
    await writeFile(file, `${lines.join("\n")}\n`);
    const added = await fleet.cli(["queue", "add", "--file", file]);
    expect(withoutSandboxNotice(added.stderr)).toBe("");
    expect(added.stdout.trim().split("\n")).toHaveLength(30);

    const results = await fleet.waitFor(
      "thirty finished jobs",
      async () => {
        const reports = await fleet.results();
        return reports.filter((report) => report.status !== "waiting" && report.status !== "running").length === 30 ? reports : undefined;
      },
      150_000,
    );
    for (const report of results) {
      const index = Number(report.name?.replace("job-", ""));
      expect(report.status, report.error).toBe("completed");
      expect(report.attempts).toBe(1);
      expect(report.report).toBe(`Wrote out-${index}.txt`);
      expect(report.patch).toContain(`+++ b/out-${index}.txt`);
      expect(report.patch).toContain(`+job ${index}`);
      expect(report.turns).toBe(2);
    }
    // Exactly once: each job's model was asked exactly its two turns, never again.
    for (const server of servers) expect(server.requests).toHaveLength(2);
    const workersUsed = new Set(results.map((report) => report.worker));
    expect(workersUsed.size).toBeGreaterThanOrEqual(2);
    for (const worker of workersUsed) expect(["w1", "w2", "w3"]).toContain(worker);
  }, 200_000);

  it("kill -9 of a worker mid-task: another worker takes the job over, repeats no completed step, and the final patch is right", async () => {
    const fleet = await fleetSandbox();
    const server = await fleet.serve({
      turns: [
        { text: "<write_to_file>\n<path>a.txt</path>\n<content>\nfirst step\n</content>\n</write_to_file>" },
        // The worker dies while this answer hangs.
        { text: "never finished", stallAfterChunks: 2 },
        { text: "<write_to_file>\n<path>b.txt</path>\n<content>\nafter the takeover\n</content>\n</write_to_file>" },
        { text: "<attempt_completion>\n<result>\nBoth files written\n</result>\n</attempt_completion>" },
      ],
    });
    const first = await fleet.startWorker("first");
    const added = await fleet.cli(["queue", "add", "--repo", fleet.repo, "--base-url", server.url, "write a.txt then b.txt"]);
    const jobId = added.stdout.trim();
    await server.waitForChunks(1, 2);
    // The patch of the completed step is in Redis before the next request went out.
    const { connectRedis } = await import("./redis-connection.js");
    const redis = await connectRedis(fleet.redis.url);
    try {
      const patch = await redis.get(`cairn-fleet:cairn:patch:${jobId}`);
      expect(patch).toContain("+first step");
    } finally {
      redis.disconnect();
    }
    first.child.kill("SIGKILL");
    await first.exit;

    await fleet.startWorker("second");
    const report = await fleet.waitFor(
      "the job to finish on the second worker",
      async () => {
        const found = (await fleet.results()).find((entry) => entry.id === jobId);
        return found && found.status !== "running" && found.status !== "waiting" ? found : undefined;
      },
      90_000,
    );
    expect(report.status, report.error).toBe("completed");
    expect(report.worker).toBe("second");
    expect(report.attempts).toBe(2);
    // Usage counts both workers' requests (10 tokens in each way per scripted turn): turn 0 on the first, turns 2 and 3 on the second.
    expect(report.tokens.input).toBeGreaterThanOrEqual(30);
    expect(report.turns).toBeGreaterThanOrEqual(3);
    expect(report.patch).toContain("+++ b/a.txt");
    expect(report.patch).toContain("+first step");
    expect(report.patch).toContain("+++ b/b.txt");
    expect(report.patch).toContain("+after the takeover");
    // Four requests: turn 0 once (never repeated), the interrupted turn 1, then the resumed turns.
    expect(server.requests).toHaveLength(4);
    const resumed = JSON.stringify(server.requests[2]?.body);
    expect(resumed).toContain("first step");
    expect(resumed).toContain("TASK RESUMPTION");
    expect(resumed).toContain("interrupted");
    const firstAfterTakeover = server.requests[2]?.body as { messages: Array<{ role: string }> };
    expect(firstAfterTakeover.messages.filter((message) => message.role === "assistant")).toHaveLength(1);
  }, 150_000);

  it("a worker frozen past its lock (SIGSTOP) leaves the job to the worker that took it over and writes nothing more to its log", async () => {
    // Unchecked, the frozen worker would notice its stalled stream after 15 s and try again, writing to the job's log.
    const fleet = await fleetSandbox({ config: { timeouts: { firstChunkMs: 15_000, betweenChunksMs: 15_000 } } });
    const server = await fleet.serve({
      turns: [
        { text: "<write_to_file>\n<path>a.txt</path>\n<content>\nbefore the freeze\n</content>\n</write_to_file>" },
        { text: "frozen here", stallAfterChunks: 2 },
        { text: "<attempt_completion>\n<result>\nFinished by the second worker\n</result>\n</attempt_completion>" },
      ],
    });
    const frozen = await fleet.startWorker("frozen");
    const jobId = (await fleet.cli(["queue", "add", "--repo", fleet.repo, "--base-url", server.url, "write a.txt"])).stdout.trim();
    await server.waitForChunks(1, 2);
    const frozenAt = Date.now();
    frozen.child.kill("SIGSTOP");
    try {
      await fleet.startWorker("second");
      await fleet.waitFor("the takeover's request", () => (server.requests.length >= 3 ? true : undefined), 60_000);
    } finally {
      frozen.child.kill("SIGCONT");
    }
    const report = await fleet.waitFor("the job to finish", async () => {
      const found = (await fleet.results()).find((entry) => entry.id === jobId);
      return found?.status === "completed" ? found : undefined;
    });
    expect(report.worker).toBe("second");
    expect(report.report).toBe("Finished by the second worker");
    expect(report.patch).toContain("+before the freeze");
    await fleet.waitFor("the frozen worker to notice", () => (/lost its lock/.test(frozen.stdout) ? true : undefined), 30_000);
    // Past the frozen worker's stall timeout: had it gone on, it would have asked again by now.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, frozenAt + 20_000 - Date.now())));
    // The frozen worker wrote no "aborted" status (nor anything else) into the log the second worker owns.
    const { connectRedis } = await import("./redis-connection.js");
    const { fleetKeys } = await import("./keys.js");
    const { readMirroredLog } = await import("./log-mirror.js");
    const redis = await connectRedis(fleet.redis.url);
    try {
      const statuses = (await readMirroredLog(redis, fleetKeys("cairn"), jobId)).flatMap((entry) => (entry.kind === "status" ? [entry.status] : []));
      expect(statuses).toEqual(["completed"]);
    } finally {
      redis.disconnect();
    }
    expect(server.requests).toHaveLength(3);
  }, 150_000);

  it("a Redis restart with persistence on loses no job", async () => {
    const fleet = await fleetSandbox({ fleet: { lockDurationMs: 15_000, stalledIntervalMs: 5000 } });
    await fleet.startWorker("only", ["--concurrency", "2"]);
    const servers = [];
    const ids: string[] = [];
    for (let index = 0; index < 6; index += 1) {
      const server = await fleet.serve(writeThenComplete(`r-${index}.txt`, `restart ${index}`, { delayMs: 40 }));
      servers.push(server);
      const added = await fleet.cli(["queue", "add", "--repo", fleet.repo, "--base-url", server.url, "--name", `r-${index}`, `write r-${index}.txt`]);
      ids.push(added.stdout.trim());
    }
    await fleet.waitFor("a first finished job", async () => ((await fleet.results()).some((report) => report.status === "completed") ? true : undefined));
    await fleet.redis.restart({ downMs: 700 });
    const results = await fleet.waitFor(
      "all six jobs after the restart",
      async () => {
        const reports = await fleet.results().catch(() => []);
        return reports.filter((report) => report.status === "completed").length === 6 ? reports : undefined;
      },
      120_000,
    );
    expect(results.map((report) => report.id).sort()).toEqual([...ids].sort());
    for (const report of results) expect(report.patch).toContain(`+restart ${report.name?.replace("r-", "")}`);
    for (const server of servers) expect(server.requests.length).toBeGreaterThanOrEqual(2);
  }, 180_000);

  it("queue cancel reaches a job running on another worker (staged abort) and a job still waiting", async () => {
    const fleet = await fleetSandbox();
    const slow = await fleet.serve({ turns: [{ text: "x".repeat(8000), chunkSize: 10, delayMs: 50 }] });
    const never = await fleet.serve(writeThenComplete("never.txt", "never"));
    await fleet.startWorker("busy");
    const running = (await fleet.cli(["queue", "add", "--repo", fleet.repo, "--base-url", slow.url, "a long answer"])).stdout.trim();
    const waiting = (await fleet.cli(["queue", "add", "--repo", fleet.repo, "--base-url", never.url, "never runs"])).stdout.trim();
    await slow.waitForChunks(0, 5);
    // The waiting job first: once the running one stops, the worker would take it at once.
    const cancelWaiting = await fleet.cli(["queue", "cancel", waiting]);
    expect(cancelWaiting.status).toBe(0);
    expect(cancelWaiting.stdout).toContain("had not started");
    const cancelRunning = await fleet.cli(["queue", "cancel", running]);
    expect(cancelRunning.status).toBe(0);
    expect(cancelRunning.stdout).toContain("cancel sent");
    await slow.waitForClientClose(0);
    const results = await fleet.waitFor(
      "both jobs to end",
      async () => {
        const reports = await fleet.results();
        return reports.filter((report) => report.status === "cancelled").length === 2 ? reports : undefined;
      },
      60_000,
    );
    expect(results.find((report) => report.id === running)?.worker).toBe("busy");
    expect(never.requests).toHaveLength(0);
    expect(slow.progress(0).completed).toBe(false);
  }, 120_000);

  it("a 429 with retry-after on one worker delays the other workers on the same provider key", async () => {
    const fleet = await fleetSandbox();
    const limited = await fleet.serve({
      turns: [{ error: { status: 429, headers: { "retry-after": "4" } } }, ...writeThenComplete("limited.txt", "limited").turns],
    });
    const other = await fleet.serve(writeThenComplete("other.txt", "other"));
    await fleet.startWorker("a");
    await fleet.startWorker("b");
    await fleet.cli(["queue", "add", "--repo", fleet.repo, "--base-url", limited.url, "meets a rate limit"]);
    await fleet.waitFor("the 429", () => (limited.requests.length >= 1 ? true : undefined), 30_000);
    const limitedAt = Date.now();
    await fleet.cli(["queue", "add", "--repo", fleet.repo, "--base-url", other.url, "another job"]);
    const otherAt = await fleet.waitFor("the other job's first request", () => (other.requests.length >= 1 ? Date.now() : undefined), 30_000);
    // The retry-after was 4 s: allow for the loaded machine's slack, but far above a job's normal start (well under a second).
    expect(otherAt - limitedAt).toBeGreaterThanOrEqual(3000);
    const results = await fleet.waitFor("both jobs", async () => {
      const reports = await fleet.results();
      return reports.filter((report) => report.status === "completed").length === 2 ? reports : undefined;
    });
    expect(new Set(results.map((report) => report.worker)).size).toBe(2);
  }, 120_000);
});
