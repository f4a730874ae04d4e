/**
 * Issue #19: the queue's commands as a user runs them: watch from any machine,
 * what a job may not carry or ask for, budgets, a pushed branch, and an eval
 * suite on the fleet.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { startCli } from "../cli/test-support/cli-harness.js";
import { jsonEventProblems } from "../ui/headless/test-support/json-events-schema.js";
import { hasRedisServer } from "./test-support/redis-server.js";
import { useFleetSandbox, writeThenComplete, type FleetSandbox } from "./test-support/fleet-harness.js";

const samples = fileURLToPath(new URL("../../samples/eval/", import.meta.url));
const permissionLayer = fileURLToPath(new URL("../security/permission-rules.ts", import.meta.url));
const fleetSandbox = useFleetSandbox();

async function finished(fleet: FleetSandbox, jobId: string) {
  return fleet.waitFor(`job ${jobId} to finish`, async () => {
    const found = (await fleet.results()).find((entry) => entry.id === jobId);
    return found && found.status !== "running" && found.status !== "waiting" ? found : undefined;
  });
}

describe.skipIf(!hasRedisServer)("cairn queue commands", () => {
  it("queue watch follows a job from another process: a snapshot of what happened, then live messages, as --json lines", async () => {
    const fleet = await fleetSandbox();
    const server = await fleet.serve({
      turns: [
        { text: "<write_to_file>\n<path>w.txt</path>\n<content>\nwatched\n</content>\n</write_to_file>" },
        { text: `Thinking it over. ${"slowly ".repeat(120)}`, chunkSize: 8, delayMs: 40 },
        { text: "<attempt_completion>\n<result>\nWatched to the end\n</result>\n</attempt_completion>" },
      ],
    });
    await fleet.startWorker("watched");
    const jobId = (await fleet.cli(["queue", "add", "--repo", fleet.repo, "--base-url", server.url, "write w.txt"])).stdout.trim();
    await server.waitForChunks(1, 3);
    const watch = startCli(["queue", "watch", jobId, "--json"], { env: fleet.env, cwd: fleet.root });
    const status = await watch.exit;
    expect(status, watch.stderr).toBe(0);
    const events = watch.events();
    const kinds = events.map((event) => event["say"] ?? event["ask"] ?? event["type"]);
    // The snapshot: the task and the first tool, which happened before watch started.
    expect(kinds[0]).toBe("task");
    expect(kinds.indexOf("tool")).toBeLessThan(kinds.indexOf("completion_result"));
    expect(events.find((event) => event["say"] === "tool")?.["text"]).toMatch(/w\.txt/);
    // Live: the slow answer's text and the completion, which came after.
    expect(events.some((event) => event["say"] === "text" && String(event["text"]).includes("slowly"))).toBe(true);
    expect(events.find((event) => event["say"] === "completion_result")?.["text"]).toBe("Watched to the end");
    expect(events.at(-1)).toEqual({ v: 2, type: "job", id: jobId, status: "completed" });
    // #18: the same format 2 as cairn run --json; a watcher that joined late starts each message from its whole text.
    for (const event of events) expect(jsonEventProblems(event), JSON.stringify(event)).toEqual([]);
    const seen = new Set<unknown>();
    for (const event of events.filter((line) => line["type"] === "say" || line["type"] === "ask")) {
      if (!seen.has(event["id"])) expect(event).toHaveProperty("text");
      seen.add(event["id"]);
    }
    expect(watch.messages().find((message) => message.say === "completion_result")?.text).toBe("Watched to the end");
  }, 90_000);

  it("keys never go into a job, a bad tasks.jsonl adds nothing, and no Redis is a clear error", async () => {
    const fleet = await fleetSandbox();
    const withKey = await fleet.cli(["queue", "add", "--repo", fleet.repo, "--api-key", "sk-do-not-store", "task"]);
    expect(withKey.status).toBe(2);
    expect(withKey.stderr).toMatch(/--api-key cannot go in a job/);
    expect(withKey.stderr).not.toContain("sk-do-not-store");
    const file = join(fleet.root, "tasks.jsonl");
    await writeFile(file, [JSON.stringify({ repo: fleet.repo, task: "fine" }), JSON.stringify({ repo: fleet.repo, task: "keyed", apiKey: "sk-x" })].join("\n"));
    const bad = await fleet.cli(["queue", "add", "--file", file]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/tasks\.jsonl:2: "apiKey" cannot go in a job/);
    await writeFile(file, [JSON.stringify({ repo: fleet.repo, task: "fine" }), "{not json"].join("\n"));
    expect((await fleet.cli(["queue", "add", "--file", file])).stderr).toMatch(/tasks\.jsonl:2: not JSON/);
    expect(await fleet.results()).toEqual([]);
    const noRepo = await fleet.cli(["queue", "add", "--repo", join(fleet.root, "missing"), "task"]);
    expect(noRepo.status).toBe(2);
    expect(noRepo.stderr).toMatch(/no such repository/);
    const { CAIRN_REDIS_URL: _url, ...withoutRedis } = fleet.env;
    const run = startCli(["queue", "status"], { env: withoutRedis, cwd: fleet.root });
    expect(await run.exit).toBe(2);
    expect(run.stderr).toMatch(/no Redis to use: pass --redis/);
    const { freePort } = await import("./test-support/redis-server.js");
    const nobody = startCli(["queue", "status", "--redis", `redis://127.0.0.1:${await freePort()}`], { env: withoutRedis, cwd: fleet.root });
    expect(await nobody.exit).toBe(2);
    expect(nobody.stderr).toMatch(/cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+ \(connect ECONNREFUSED [^)]*\); is redis-server running there\?/);
  }, 60_000);

  it("a worker refuses a job that names a base URL its settings do not allow, and enforces a job's budget", async () => {
    const fleet = await fleetSandbox({ fleet: { allow: { baseUrls: [] } } });
    const elsewhere = await fleet.serve(writeThenComplete("x.txt", "x"));
    const own = await fleet.serve(writeThenComplete("y.txt", "y"));
    await fleet.startWorker("strict", ["--base-url", own.url]);
    const refused = (await fleet.cli(["queue", "add", "--repo", fleet.repo, "--base-url", elsewhere.url, "send my key elsewhere"])).stdout.trim();
    const report = await finished(fleet, refused);
    expect(report.status).toBe("rejected");
    expect(report.error).toMatch(/does not allow/);
    expect(elsewhere.requests).toHaveLength(0);

    const budgeted = (await fleet.cli(["queue", "add", "--repo", fleet.repo, "--max-turns", "1", "two turns needed"])).stdout.trim();
    const spent = await finished(fleet, budgeted);
    expect(spent.status).toBe("failed");
    // The fleet's own check, or the permission layer's budget where cairn has it (issue #14): both stop at one request.
    expect(spent.error).toMatch(/budget spent: 1 of 1 turns|Budget reached: --max-requests 1/);
    expect(own.requests).toHaveLength(1);
    expect(spent.patch).toContain("+++ b/y.txt");
  }, 90_000);

  it("a job's deny rule reaches the permission layer on the worker (or, without that layer, the job is refused, never run unguarded)", async () => {
    const fleet = await fleetSandbox();
    const server = await fleet.serve({
      turns: [
        { text: "<execute_command>\n<command>echo hi > denied.txt</command>\n<requires_approval>false</requires_approval>\n</execute_command>" },
        { text: "<attempt_completion>\n<result>\ntried\n</result>\n</attempt_completion>" },
      ],
    });
    await fleet.startWorker("guarded");
    const jobId = (await fleet.cli(["queue", "add", "--repo", fleet.repo, "--base-url", server.url, "--deny", "Bash(echo *)", "run echo"])).stdout.trim();
    const report = await finished(fleet, jobId);
    if (!existsSync(permissionLayer)) {
      expect(report.status).toBe("rejected");
      expect(report.error).toMatch(/cannot enforce/);
      expect(server.requests).toHaveLength(0);
      return;
    }
    expect(report.status, report.error).toBe("completed");
    expect(report.patch).not.toContain("denied.txt");
    expect(JSON.stringify(server.requests[1]?.body)).toMatch(/denied|Bash\(echo \*\)/i);
  }, 60_000);

  it("a finished job can push its result to a branch of the repository", async () => {
    const fleet = await fleetSandbox();
    const server = await fleet.serve(writeThenComplete("pushed.txt", "on a branch"));
    await fleet.startWorker("pusher");
    const jobId = (await fleet.cli(["queue", "add", "--repo", fleet.repo, "--base-url", server.url, "--push-branch", "fix-1", "write pushed.txt"])).stdout.trim();
    const report = await finished(fleet, jobId);
    expect(report.status, report.error).toBe("completed");
    expect(report.branch).toBe("cairn/fix-1");
    expect(execFileSync("git", ["show", "cairn/fix-1:pushed.txt"], { cwd: fleet.repo, encoding: "utf8" })).toMatch(/on a branch/);
  }, 60_000);

  it("providerConcurrency caps requests in flight across the fleet; queue status shows where jobs run", async () => {
    const fleet = await fleetSandbox({ fleet: { providerConcurrency: { anthropic: 1 } } });
    const slowAnswer = { text: `Working. ${"step ".repeat(300)}`, chunkSize: 10, delayMs: 30 };
    const first = await fleet.serve({ turns: [slowAnswer, writeThenComplete("a.txt", "a").turns[1]!] });
    const second = await fleet.serve({ turns: [writeThenComplete("b.txt", "b").turns[1]!] });
    await fleet.startWorker("one");
    await fleet.startWorker("two");
    const firstId = (await fleet.cli(["queue", "add", "--repo", fleet.repo, "--base-url", first.url, "slow"])).stdout.trim();
    await first.waitForChunks(0, 2);
    await fleet.cli(["queue", "add", "--repo", fleet.repo, "--base-url", second.url, "quick"]);
    const [status, text] = await Promise.all([fleet.cli(["queue", "status", "--json"]), fleet.cli(["queue", "status"])]);
    const parsed = JSON.parse(status.stdout) as { counts: Record<string, number>; running: Array<{ id: string; worker: string }> };
    expect(parsed.running.find((job) => job.id === firstId)?.worker).toMatch(/^(one|two)$/);
    expect(text.stdout).toMatch(new RegExp(`${firstId}\\s+running on (one|two)`));
    // The other worker is idle, but the fleet allows one request at a time: the second waits for the first's answer.
    await fleet.waitFor("the second job's request", () => (second.requests.length > 0 ? true : undefined));
    expect(first.progress(0).completed).toBe(true);
    const results = await fleet.waitFor("both jobs", async () => {
      const reports = await fleet.results();
      return reports.filter((report) => report.status === "completed").length === 2 ? reports : undefined;
    });
    expect(new Set(results.map((report) => report.worker)).size).toBe(2);
  }, 90_000);

  it("cairn eval --redis runs a suite's cases on the fleet and checks their patches here", async () => {
    const fleet = await fleetSandbox();
    await fleet.startWorker("eval-1");
    await fleet.startWorker("eval-2");
    const suite = join(fleet.root, "suite.json");
    await writeFile(
      suite,
      JSON.stringify({
        cases: [
          { name: "clamp", repo: join(samples, "repos", "math"), task: "fix clamp", scenario: join(samples, "scenarios", "clamp.json"), check: "node --test test/clamp.test.js" },
          {
            name: "lazy",
            repo: join(samples, "repos", "math"),
            task: "fix factorial",
            scenario: { turns: [{ text: "<attempt_completion>\n<result>\nno\n</result>\n</attempt_completion>" }] },
            check: "node --test test/factorial.test.js",
          },
        ],
      }),
    );
    const run = await fleet.cli(["eval", suite, "--redis", fleet.redis.url, "--json"]);
    expect(run.status).toBe(1);
    const report = JSON.parse(run.stdout) as { mode: string; cases: Array<{ name: string; pass: boolean; turns: number }> };
    expect(report.mode).toBe("fleet");
    expect(report.cases).toMatchObject([
      { name: "clamp", pass: true, turns: 3 },
      { name: "lazy", pass: false, turns: 1 },
    ]);
    const workers = new Set((await fleet.results()).map((entry) => entry.worker));
    for (const worker of workers) expect(["eval-1", "eval-2"]).toContain(worker);
  }, 90_000);
});
