/**
 * #14 budgets count the whole task, through the real CLI against the scripted
 * server: --max-time across resumes (the gaps between runs do not count),
 * tokens, cost and tool calls across a resume (a resume may raise a limit),
 * and summary requests of context compaction as requests.
 */
import { writeFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ScriptedServer } from "../llm/scripted/server.js";
import type { ScenarioTurn } from "../llm/scripted/scenario.js";
import { startCli } from "./test-support/cli-harness.js";
import { useCliFixture } from "./test-support/cli-fixture.js";

const cli = useCliFixture();

const usage = { inputTokens: 1000, outputTokens: 500 };
const command = (text: string): ScenarioTurn => ({ text: `<execute_command>\n<command>${text}</command>\n<requires_approval>false</requires_approval>\n</execute_command>`, usage });
const completion = "<attempt_completion>\n<result>done</result>\n</attempt_completion>";
const complete: ScenarioTurn = { text: completion, usage };
const summaryRoute = "You condense the conversation of an autonomous coding agent";

async function serve(turns: ScenarioTurn[], routes?: Array<{ bodyIncludes: string; turns: ScenarioTurn[] }>): Promise<ScriptedServer> {
  await cli.server?.close();
  return cli.startServer({ turns, ...(routes ? { routes } : {}) });
}
const provider = (): string[] => ["--provider", "anthropic", "--base-url", cli.server!.url, "--api-key", "sk-test"];
const run = (args: string[]) => cli.run(["run", ...provider(), "--yes", ...args]);
const resume = (taskId: string, args: string[], message = "go on") => cli.run(["resume", taskId, ...provider(), "--yes", ...args, message]);
/** The task id: the first line of stderr in text mode. */
const taskIdOf = (stderr: string): string => /^task (\S+)$/m.exec(stderr)?.[1] ?? "";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("budgets count the whole task, across resumes, subagents and crashes", () => {
  it("--max-time counts the time of every run of the task, not the gaps between runs; a resume may raise it", async () => {
    await serve([command("sleep 2"), complete, complete, complete]);
    const first = await run(["this task takes two seconds"]);
    expect(first.status, first.stderr).toBe(0);
    const taskId = taskIdOf(first.stderr);
    // The first run took over 2 s: a resume with a 2 s limit stops before its first request.
    const stopped = await resume(taskId, ["--max-time", "2s"]);
    expect(stopped.status, stopped.stderr).toBe(3);
    expect(stopped.stderr).toMatch(/budget: Budget reached: --max-time 2s \(\d+ s elapsed\)/);
    expect(cli.server!.requests).toHaveLength(2);
    // Later (the task not running), a 6 s limit still leaves room: the task ran about 2 s, and the gap
    // between its runs (over 4.5 s, so more than 6 s since it started) does not count.
    await sleep(4500);
    const raised = await resume(taskId, ["--max-time", "6s"]);
    expect(raised.status, raised.stderr).toBe(0);
    expect(cli.server!.requests).toHaveLength(3);
  }, 60_000);

  it("tokens, cost and tool calls survive a resume: each limit holds against what the task already spent", async () => {
    await serve([command("echo one"), complete, complete, command("echo two"), complete]);
    const first = await run(["--json", "spend some"]);
    expect(first.status, first.stderr).toBe(0);
    const result = JSON.parse(first.stdout.trim().split("\n").at(-1) ?? "{}") as { taskId: string; tokensIn: number; tokensOut: number; cost: number };
    expect([result.tokensIn, result.tokensOut]).toEqual([2000, 1000]);
    expect(result.cost).toBeGreaterThan(0);
    const taskId = result.taskId;

    const tokens = await resume(taskId, ["--max-tokens", "3000"]);
    expect(tokens.status).toBe(3);
    expect(tokens.stderr).toMatch(/--max-tokens 3000 \(3000 tokens used\)/);
    const cost = await resume(taskId, ["--max-cost", String(result.cost)]);
    expect(cost.status).toBe(3);
    expect(cost.stderr).toMatch(/--max-cost/);
    expect(cli.server!.requests).toHaveLength(2);

    // Raised, the token limit lets the task go on (one more request, which completes).
    const raised = await resume(taskId, ["--max-tokens", "100000"]);
    expect(raised.status, raised.stderr).toBe(0);
    expect(cli.server!.requests).toHaveLength(3);
    // Three tool calls were made before (a command and two attempt_completion, as they were counted live):
    // --max-tool-calls 3 refuses the next one.
    const tools = await resume(taskId, ["--max-tool-calls", "3"]);
    expect(tools.status).toBe(3);
    expect(tools.stderr).toMatch(/--max-tool-calls 3 \(3 tool calls made\)/);
    expect(cli.server!.requests).toHaveLength(4);
  }, 60_000);

  it("summary requests count as requests: in the run that compacts, and after a resume", async () => {
    await mkdir(join(cli.sandbox.workspace, "src"), { recursive: true });
    for (let file = 0; file < 12; file += 1) {
      const lines = Array.from({ length: 30 }, (_, line) => `export const value${file}_${line} = compute("${file}-${line}", ${line * 7 + file});`);
      await writeFile(join(cli.sandbox.workspace, "src", `file${file}.ts`), `${lines.join("\n")}\n`);
    }
    const reads = Array.from({ length: 12 }, (_, file): ScenarioTurn => ({ text: `<read_file>\n<path>src/file${file}.ts</path>\n</read_file>`, chunkSize: 400 }));
    const summaries = Array.from({ length: 10 }, (_, index): ScenarioTurn => ({ text: `## Task\nRead the sources.\n## Next step\nGo on (summary ${index}).` }));
    await serve([...reads, complete], [{ bodyIncludes: summaryRoute, turns: summaries }]);
    // A small window (as a local model would have) so that the reads make cairn compact.
    await writeFile(
      join(cli.sandbox.configDir, "cairn", "config.json"),
      JSON.stringify({ retry: { delaysMs: [10, 20, 40] }, sandboxOptIn: false, models: { "claude-sonnet-5-5": { contextWindow: 8_000, maxOutputTokens: 2_000 } }, context: { filesKept: 1 } }),
    );
    const limited = await cli.run(["run", ...provider(), "--model", "claude-sonnet-5-5", "--yes", "--json", "--max-requests", "8", "read the sources"]);
    expect(limited.status, limited.stderr).toBe(3);
    const summaryRequests = cli.server!.requests.filter((request) => request.route !== undefined).length;
    expect(summaryRequests).toBeGreaterThanOrEqual(1);
    // Eight requests in all, summaries included.
    expect(cli.server!.requests).toHaveLength(8);

    const taskId = (JSON.parse(limited.stdout.trim().split("\n").at(-1) ?? "{}") as { taskId: string }).taskId;
    const again = await cli.run(["resume", taskId, ...provider(), "--model", "claude-sonnet-5-5", "--yes", "--max-requests", "8", "go on"]);
    expect(again.status, again.stderr).toBe(3);
    expect(again.stderr).toMatch(/--max-requests 8 \(8 requests made\)/);
    expect(cli.server!.requests).toHaveLength(8);
  }, 120_000);

  it("a resumed parent counts what its subagents spent in earlier runs: requests and tokens", async () => {
    const child = (text: string): ScenarioTurn => ({ text, usage: { inputTokens: 100, outputTokens: 20 } });
    const parent = (text: string): ScenarioTurn => ({ text, usage: { inputTokens: 30, outputTokens: 10 } });
    const server = await cli.startServer({
      turns: [parent(`Delegating.\n<use_subagents>\n<subagents>${JSON.stringify([{ prompt: "ALPHA: list the files", agent: "explore" }])}</subagents>\n</use_subagents>`), parent(completion), parent(completion)],
      conversations: [{ match: "ALPHA:", turns: [child("<list_files>\n<path>.</path>\n</list_files>"), child("<attempt_completion>\n<result>one report</result>\n</attempt_completion>")] }],
    });
    const first = await run(["delegate"]);
    expect(first.status, first.stderr).toBe(0);
    expect(server.requests).toHaveLength(4);
    const taskId = taskIdOf(first.stderr);
    // Parent 2 requests + child 2 = 4; parent 80 tokens + child 240 = 320.
    const requests = await resume(taskId, ["--max-requests", "4"]);
    expect(requests.status, requests.stderr).toBe(3);
    expect(requests.stderr).toMatch(/--max-requests 4 \(4 requests made\)/);
    const tokens = await resume(taskId, ["--max-tokens", "300"]);
    expect(tokens.status, tokens.stderr).toBe(3);
    expect(tokens.stderr).toMatch(/--max-tokens 300 \(320 tokens used\)/);
    expect(server.requests).toHaveLength(4);
    const raised = await resume(taskId, ["--max-requests", "5", "--max-tokens", "400"]);
    expect(raised.status, raised.stderr).toBe(0);
    expect(server.requests).toHaveLength(5);
  }, 60_000);

  it("after a crash (kill -9, no status written) a resume still counts the tokens the lost run spent", async () => {
    await serve([{ text: "<write_to_file>\n<path>a.txt</path>\n<content>\none\n</content>\n</write_to_file>", usage }, { text: "never finished", stallAfterChunks: 2 }, complete]);
    const crashed = startCli(["run", ...provider(), "--yes", "--no-checkpoints", "write a.txt"], { env: cli.sandbox.env, cwd: cli.sandbox.workspace });
    await cli.server!.waitForChunks(1, 2);
    crashed.child.kill("SIGKILL");
    await crashed.exit;
    const taskId = taskIdOf(crashed.stderr);
    // The first request spent 1500 tokens; the run died before writing its totals.
    const resumed = await resume(taskId, ["--max-tokens", "1500"]);
    expect(resumed.status, resumed.stderr).toBe(3);
    expect(resumed.stderr).toMatch(/--max-tokens 1500 \(1500 tokens used\)/);
    expect(cli.server!.requests).toHaveLength(2);
  }, 60_000);

  it("at a limit: exit status 3, a budget message naming the limit (stderr in text mode, a say line in --json) and a result with status budget", async () => {
    await serve([command("echo one"), complete]);
    const text = await run(["--max-requests", "1", "go"]);
    expect(text.status).toBe(3);
    expect(text.stderr).toContain("budget: Budget reached: --max-requests 1 (1 requests made). The task stopped and can be resumed; a resume may raise the limit.");
    expect(text.stderr.trim().split("\n").at(-1)).toMatch(/^budget · 1 turn · /);
    await serve([command("echo one"), complete]);
    const json = await run(["--json", "--max-tool-calls", "1", "--max-requests", "5", "go"]);
    expect(json.status).toBe(3);
    const lines = json.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.find((line) => line["say"] === "budget")).toMatchObject({ type: "say", say: "budget", text: expect.stringMatching(/^Budget reached: --max-tool-calls 1 \(1 tool calls made\)/) });
    expect(lines.at(-1)).toMatchObject({ type: "result", status: "budget", exitStatus: 3 });
  }, 60_000);

  it("an interrupted subagent resumed with its parent is counted once: its earlier spending is not added twice", async () => {
    const spend = (text: string, inputTokens: number, outputTokens: number): ScenarioTurn => ({ text, usage: { inputTokens, outputTokens } });
    const delegate = `Delegating.\n<use_subagents>\n<subagents>${JSON.stringify([
      { prompt: "ALPHA: list", agent: "explore" },
      { prompt: "BETA: list slowly", agent: "explore" },
    ])}</subagents>\n</use_subagents>`;
    const listing = "<list_files>\n<path>.</path>\n</list_files>";
    const done = (result: string): string => `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>`;
    await cli.startServer({
      turns: [spend(delegate, 30, 10), spend(delegate, 30, 10), spend(done("all reported"), 30, 10)],
      conversations: [
        { match: "ALPHA:", turns: [spend(listing, 100, 20), spend(done("alpha report"), 100, 20)] },
        { match: "BETA:", turns: [spend(listing, 100, 20), { text: "Listing slowly. ".repeat(50), stallAfterChunks: 5 }, spend(done("beta report"), 100, 20)] },
      ],
    });
    const interrupted = startCli(["run", ...provider(), "--yes", "--json", "delegate"], { env: cli.sandbox.env, cwd: cli.sandbox.workspace });
    await interrupted.waitForOutput(/"say":"completion_result"[^\n]*"subagentId":"explore-1"|"subagentId":"explore-1"[^\n]*"say":"completion_result"/);
    await interrupted.waitForOutput(/Listing slowly/);
    interrupted.child.kill("SIGINT");
    expect(await interrupted.exit).toBe(130);
    const parentId = String(interrupted.events()[0]?.["taskId"]);
    // Spent so far: parent 40, ALPHA 240, BETA 120 (its first request). The resumed run adds the parent's
    // request (40), BETA's last (120): 560 before the parent's final request, which 600 allows;
    // BETA's earlier 120 counted twice would make it 680 and stop the task.
    const resumed = await cli.run(["resume", parentId, ...provider(), "--yes", "--max-tokens", "600"]);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain("all reported");
  }, 90_000);
});
