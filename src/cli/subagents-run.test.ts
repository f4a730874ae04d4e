/**
 * Subagents through the real CLI against the scripted server, its requests
 * routed per conversation by each subagent's prompt: parallel children,
 * tools by agent type, abort, budgets, asks, the native protocol, agent files.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Scenario } from "../llm/scripted/scenario.js";
import { TaskStore } from "../store/task-store.js";
import { runCli, startCli } from "./test-support/cli-harness.js";
import { useCliFixture } from "./test-support/cli-fixture.js";
import { withoutSandboxNotice } from "./test-support/cli-harness.js";
import { command, complete, pgrep, readFileCall, subagentRunHelpers, until, useSubagents } from "./test-support/subagent-runs.js";

const cli = useCliFixture();
const { runArgs, conversationOrder, requestText } = subagentRunHelpers(cli);

describe("subagents through the real CLI", () => {
  it("two explore subagents run in parallel and their reports (with tokens and cost) reach the parent; each has its own log linked from the parent's", { timeout: 60_000 }, async () => {
    await writeFile(join(cli.sandbox.workspace, "alpha.txt"), "the alpha file says hello\n");
    const scenario: Scenario = {
      turns: [
        { text: useSubagents([{ prompt: "ALPHA: read alpha.txt", agent: "explore" }, { prompt: "BETA: list the files" }].map((item, index) => (index === 1 ? { ...item, agent: "explore" } : item))) },
        { text: complete("Both reports read.") },
      ],
      conversations: [
        { match: "ALPHA:", turns: [{ text: readFileCall("alpha.txt"), chunkSize: 4, delayMs: 15, usage: { inputTokens: 100, outputTokens: 20 } }, { text: complete("alpha report: the file says hello") }] },
        { match: "BETA:", turns: [{ text: "<list_files>\n<path>.</path>\n</list_files>", chunkSize: 4, delayMs: 15 }, { text: complete("beta report: one file, alpha.txt") }] },
      ],
    };
    const server = await cli.startServer(scenario);
    const result = await cli.run(runArgs(["--yes", "--json"], "Explore the workspace"));
    expect(withoutSandboxNotice(result.stderr)).toBe("");
    expect(result.status).toBe(0);

    // Parallel: both children's first requests arrive before either child's second one.
    const order = conversationOrder(["ALPHA:", "BETA:"]);
    expect(order).toHaveLength(6);
    expect(order[0]).toBe("parent");
    expect(new Set(order.slice(1, 3))).toEqual(new Set(["ALPHA:", "BETA:"]));
    expect(new Set(order.slice(3, 5))).toEqual(new Set(["ALPHA:", "BETA:"]));
    expect(order[5]).toBe("parent");

    // The parent's next request holds each child's attempt_completion result with its usage.
    const back = requestText(5);
    expect(back).toContain("alpha report: the file says hello");
    expect(back).toContain("beta report: one file, alpha.txt");
    expect(back).toMatch(/<subagent id=\\"explore-1\\" agent=\\"explore\\"[^>]*status=\\"completed\\" tokens_in=\\"1\d\d\\" tokens_out=\\"\d+\\" cost=\\"[\d.]+\\">/);
    // The child read the file (its tool result went to its own conversation, not the parent's).
    expect(JSON.stringify(server.requests.map((request) => request.body))).toContain("the alpha file says hello");
    expect(requestText(5)).not.toContain("the alpha file says hello");

    // --json: the children's messages carry their subagentId; the parent links each child's log.
    const childEvents = result.events.filter((event) => event["subagentId"] === "explore-1");
    expect(childEvents.some((event) => event["say"] === "completion_result" && event["text"] === "alpha report: the file says hello")).toBe(true);
    expect(result.events.some((event) => event["subagentId"] === "explore-2" && event["say"] === "completion_result")).toBe(true);
    const links = result.events.filter((event) => typeof (event["meta"] as Record<string, unknown> | undefined)?.["childTaskId"] === "string");
    expect(links).toHaveLength(2);
    const store = new TaskStore({ dataDir: cli.sandbox.dataDir });
    const parentId = String(result.events[0]?.["taskId"]);
    for (const link of links) {
      const childId = String((link["meta"] as Record<string, unknown>)["childTaskId"]);
      const meta = JSON.parse(await readFile(join(store.tasksDir, childId, "meta.json"), "utf8")) as Record<string, unknown>;
      expect(meta["parent"]).toEqual({ taskId: parentId, subagentId: (link["meta"] as Record<string, unknown>)["subagentId"] });
      expect((await store.load(childId)).status).toBe("completed");
    }
    // The parent's own log holds the links.
    const parentLog = await readFile(join(store.tasksDir, parentId, "log.jsonl"), "utf8");
    for (const link of links) expect(parentLog).toContain(String((link["meta"] as Record<string, unknown>)["childTaskId"]));

    // cairn show draws the tree: the parent lists its subagents, a child names its parent.
    const shown = await cli.run(["show", parentId]);
    expect(shown.stdout).toMatch(/Subagents:\n {2}├─ explore-\d \(explore\) \S+: completed; \d+ tokens in, \d+ out; \$[\d.]+\n {2}└─ explore-\d \(explore\) \S+: completed/);
    const firstChild = String((links[0]?.["meta"] as Record<string, unknown>)["childTaskId"]);
    const childShown = await cli.run(["show", firstChild]);
    expect(childShown.stdout).toMatch(new RegExp(`Subagent explore-\\d of task ${parentId}`));
    const shownJson = JSON.parse((await cli.run(["show", "--json", parentId])).stdout) as { subagents: Array<Record<string, unknown>> };
    expect(shownJson.subagents.map((node) => node["status"])).toEqual(["completed", "completed"]);
  });

  it("an explore subagent offers no editing tools and refuses commands that are not read-only", { timeout: 60_000 }, async () => {
    await writeFile(join(cli.sandbox.workspace, "seen-by-ls.txt"), "x\n");
    const scenario: Scenario = {
      turns: [{ text: useSubagents([{ prompt: "GAMMA: look around", agent: "explore" }]) }, { text: complete("ok") }],
      conversations: [
        {
          match: "GAMMA:",
          turns: [{ text: command("touch made-by-explore") }, { text: command("ls") }, { text: complete("gamma done") }],
        },
      ],
    };
    const server = await cli.startServer(scenario);
    const result = await cli.run(runArgs(["--yes", "--json"], "Look"));
    expect(result.status).toBe(0);
    expect(existsSync(join(cli.sandbox.workspace, "made-by-explore"))).toBe(false);
    const childSystem = String((server.requests[1]?.body as Record<string, unknown>)["system"] ? JSON.stringify((server.requests[1]?.body as Record<string, unknown>)["system"]) : "");
    expect(childSystem).toContain("## read_file");
    expect(childSystem).not.toContain("## write_to_file");
    expect(childSystem).not.toContain("## use_subagents");
    expect(requestText(2)).toContain("this agent is read-only");
    // A read-only command still runs.
    expect(result.events.some((event) => event["subagentId"] === "explore-1" && event["say"] === "command_output" && String(event["text"]).includes("seen-by-ls.txt"))).toBe(true);
  });

  it("abort during two running children: the parent's SIGINT stops both (no orphan process), every task is left resumable, and a child resumes to its end", { timeout: 90_000 }, async () => {
    const marker = "sleep 3017";
    const scenario: Scenario = {
      turns: [
        {
          text: useSubagents([
            { prompt: "ALPHA: run the long command", agent: "general" },
            { prompt: "BETA: think slowly", agent: "general" },
          ]),
        },
      ],
      conversations: [
        { match: "ALPHA:", turns: [{ text: command(marker) }, { text: complete("alpha resumed and done") }] },
        { match: "BETA:", turns: [{ text: "Thinking slowly. ".repeat(50), stallAfterChunks: 6 }] },
      ],
    };
    const server = await cli.startServer(scenario);
    const run = startCli(runArgs(["--yes", "--json"], "Do two things"), { env: cli.sandbox.env, cwd: cli.sandbox.workspace });
    await until(() => pgrep(marker) !== "" && cli.server!.requests.length >= 3);
    await server.waitForChunks(2, 6).catch(() => undefined);
    run.child.kill("SIGINT");
    expect(await run.exit).toBe(130);
    await until(() => pgrep(marker) === "", 10_000);

    const events = run.events();
    const parentId = String(events[0]?.["taskId"]);
    const children = events.flatMap((event) => {
      const meta = event["meta"] as Record<string, unknown> | undefined;
      return typeof meta?.["childTaskId"] === "string" ? [{ subagentId: String(meta["subagentId"]), taskId: meta["childTaskId"] }] : [];
    });
    expect(children.map((child) => child.subagentId).sort()).toEqual(["general-1", "general-2"]);
    const store = new TaskStore({ dataDir: cli.sandbox.dataDir });
    expect((await store.load(parentId)).status).toBe("aborted");
    for (const child of children) expect((await store.load(child.taskId)).status).toBe("aborted");

    const resumed = await runCli(["resume", "--json", "--yes", "--provider", "anthropic", "--base-url", server.url, "--api-key", "sk-test-subagents", children.find((child) => child.subagentId === "general-1")!.taskId], {
      env: cli.sandbox.env,
      cwd: cli.sandbox.workspace,
    });
    expect(resumed.status).toBe(0);
    expect(resumed.events.some((event) => event["say"] === "completion_result" && event["text"] === "alpha resumed and done")).toBe(true);
  });

  it("a child hitting the parent's budget stops with a budget status, and the parent stops too (exit status 3)", { timeout: 60_000 }, async () => {
    const scenario: Scenario = {
      turns: [{ text: useSubagents([{ prompt: "ALPHA: spend tokens", agent: "explore" }]), usage: { inputTokens: 30, outputTokens: 10 } }, { text: complete("never reached") }],
      conversations: [{ match: "ALPHA:", turns: [{ text: "<list_files>\n<path>.</path>\n</list_files>", usage: { inputTokens: 50, outputTokens: 20 } }, { text: complete("never reached either") }] }],
    };
    await cli.startServer(scenario);
    const result = await cli.run(runArgs(["--yes", "--json", "--max-tokens", "100"], "Spend"));
    expect(result.status).toBe(3);
    // Parent (40 tokens) + child's first request (70): the child's second request is refused, and so is the parent's.
    expect(conversationOrder(["ALPHA:"])).toEqual(["parent", "ALPHA:"]);
    const childBudget = result.events.find((event) => event["say"] === "budget" && event["subagentId"] === "explore-1");
    expect(String(childBudget?.["text"])).toMatch(/--max-tokens 100/);
    expect(result.events.some((event) => event["say"] === "budget" && event["subagentId"] === undefined)).toBe(true);
    const link = result.events.find((event) => typeof (event["meta"] as Record<string, unknown> | undefined)?.["childTaskId"] === "string");
    const childId = String((link?.["meta"] as Record<string, unknown>)["childTaskId"]);
    expect((await new TaskStore({ dataDir: cli.sandbox.dataDir }).load(childId)).status).toBe("budget");
  });

  it(
    "a user-defined agent type from a Claude Code agent file (.claude/agents/): listed in the parent's system prompt, its tools and instructions given to the child; the SubagentStop hook runs when it ends",
    { timeout: 60_000 },
    async () => {
      await mkdir(join(cli.sandbox.workspace, ".claude", "agents"), { recursive: true });
      await writeFile(
        join(cli.sandbox.workspace, ".claude", "agents", "doc-reader.md"),
        "---\nname: doc-reader\ndescription: Reads documentation and summarises it in one line\ntools: Read, Grep, Glob\nmodel: inherit\n---\n\nYou summarise documentation. Marker DOCREADER-INSTRUCTIONS.\n",
      );
      const scenario: Scenario = {
        turns: [{ text: useSubagents([{ prompt: "DELTA: summarise the docs", agent: "doc-reader" }]) }, { text: complete("summarised") }],
        conversations: [{ match: "DELTA:", turns: [{ text: complete("delta summary: nothing to read") }] }],
      };
      // The hook runs in the sandbox (on by default): it writes into the workspace.
      const hookFile = join(cli.sandbox.workspace, "subagent-stop.json");
      await writeFile(join(cli.sandbox.configDir, "cairn", "config.json"), JSON.stringify({ retry: { delaysMs: [10, 20, 40] }, hooks: { SubagentStop: `cat > '${hookFile}'` } }));
      const server = await cli.startServer(scenario);
      const result = await cli.run(runArgs(["--yes", "--json"], "Summarise"));
      expect(result.status).toBe(0);
      // The SubagentStop hook ran with the child's outcome, and its status shows in the parent.
      const stopped = JSON.parse(await readFile(hookFile, "utf8")) as Record<string, unknown>;
      expect(stopped).toMatchObject({ hook: "SubagentStop", taskId: result.events[0]?.["taskId"], subagentId: "doc-reader-1", agent: "doc-reader", status: "completed", result: "delta summary: nothing to read" });
      expect(result.events.some((event) => event["say"] === "hook_status" && String(event["text"]).includes("SubagentStop"))).toBe(true);
      const parentSystem = JSON.stringify((server.requests[0]?.body as Record<string, unknown>)["system"]);
      expect(parentSystem).toContain("doc-reader: Reads documentation and summarises it in one line");
      const childSystem = JSON.stringify((server.requests[1]?.body as Record<string, unknown>)["system"]);
      expect(childSystem).toContain("DOCREADER-INSTRUCTIONS");
      expect(childSystem).toContain("## read_file");
      expect(childSystem).toContain("## search_files");
      expect(childSystem).toContain("## list_files");
      expect(childSystem).not.toContain("## execute_command");
      expect(childSystem).not.toContain("## write_to_file");
      expect(requestText(2)).toContain("delta summary: nothing to read");
    },
  );

  it("approval prompts name the subagent in --json (subagentId and the ask's text); the answer reaches the child", { timeout: 60_000 }, async () => {
    const scenario: Scenario = {
      turns: [{ text: useSubagents([{ prompt: "EPSILON: write a file" }]) }, { text: complete("the child wrote it") }],
      conversations: [{ match: "EPSILON:", turns: [{ text: command("echo from-child > child.txt") }, { text: complete("wrote child.txt") }] }],
    };
    await cli.startServer(scenario);
    const run = startCli(runArgs(["--json"], "Write"), { env: cli.sandbox.env, cwd: cli.sandbox.workspace, keepStdinOpen: true });
    await run.waitForOutput(/"ask":"command"/);
    const ask = run.events().find((event) => event["ask"] === "command");
    expect(ask?.["subagentId"]).toBe("general-1");
    expect(String(ask?.["text"])).toMatch(/^\[subagent general-1\] /);
    run.child.stdin?.write(`${JSON.stringify({ id: ask?.["id"], response: "yes" })}\n`);
    // The child wrote in its own copy of the workspace: merging its diff is asked, naming it.
    await run.waitForOutput(/"ask":"tool"/);
    const merge = run.events().find((event) => event["ask"] === "tool");
    expect(String(merge?.["text"])).toBe("[subagent general-1] Merge its changes into the workspace (child.txt)?");
    expect(String((merge?.["meta"] as Record<string, unknown>)["diff"])).toContain("+from-child");
    expect(existsSync(join(cli.sandbox.workspace, "child.txt"))).toBe(false);
    run.child.stdin?.end(`${JSON.stringify({ id: merge?.["id"], response: "yes" })}\n`);
    // Headless, the parent's completion is no ask: the task ends when the model completes.
    expect(await run.exit).toBe(0);
    expect(run.events().filter((event) => event["ask"] === "completion_result")).toEqual([]);
    expect(run.messages().find((message) => message.say === "completion_result" && message.subagentId === undefined)?.text).toBe("the child wrote it");
    expect(await readFile(join(cli.sandbox.workspace, "child.txt"), "utf8")).toBe("from-child\n");
  });

  it("native tool protocol: use_subagents with a JSON array argument; at most subagents.maxParallel children run at once", { timeout: 60_000 }, async () => {
    await writeFile(join(cli.sandbox.configDir, "cairn", "config.json"), JSON.stringify({ retry: { delaysMs: [10, 20, 40] }, subagents: { maxParallel: 2 } }));
    const child = (name: string) => ({
      match: `${name}:`,
      turns: [{ toolCalls: [{ name: "list_files", arguments: { path: "." } }], chunkSize: 4, delayMs: 10 }, { toolCalls: [{ name: "attempt_completion", arguments: { result: `${name} report` } }] }],
    });
    const scenario: Scenario = {
      turns: [
        {
          toolCalls: [
            {
              name: "use_subagents",
              arguments: {
                subagents: [
                  { prompt: "ONE: look", agent: "explore" },
                  { prompt: "TWO: look", agent: "explore" },
                  { prompt: "THREE: look", agent: "explore" },
                ],
              },
            },
          ],
        },
        { toolCalls: [{ name: "attempt_completion", arguments: { result: "all three reported" } }] },
      ],
      conversations: [child("ONE"), child("TWO"), child("THREE")],
    };
    const server = await cli.startServer(scenario);
    const result = await cli.run(runArgs(["--yes", "--json", "--tool-protocol", "native"], "Look three times"));
    expect(result.status).toBe(0);
    const order = conversationOrder(["ONE:", "TWO:", "THREE:"]);
    // The third starts only after one of the first two ended (its last request came first).
    const thirdStart = order.indexOf("THREE:");
    const firstEnd = Math.min(order.lastIndexOf("ONE:"), order.lastIndexOf("TWO:"));
    expect(order.slice(1, 3).sort()).toEqual(["ONE:", "TWO:"]);
    expect(thirdStart).toBeGreaterThan(firstEnd);
    const back = requestText(order.length - 1);
    for (const name of ["ONE", "TWO", "THREE"]) expect(back).toContain(`${name} report`);
    const tools = ((server.requests[0]?.body as Record<string, unknown>)["tools"] as Array<Record<string, unknown>>).map((tool) => tool["name"]);
    expect(tools).toContain("use_subagents");
  });
});
