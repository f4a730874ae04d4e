/**
 * Issue #17 (subagents) through the real CLI against the scripted server, its
 * requests routed per conversation by each subagent's prompt.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Scenario } from "../llm/scripted/scenario.js";
import { firstUserText } from "../llm/scripted/conversation-router.js";
import { TaskStore } from "../store/task-store.js";
import { runCli, startCli } from "./test-support/cli-harness.js";
import { useCliFixture } from "./test-support/cli-fixture.js";
import { everythingEntry } from "../mcp/test-support/servers.js";
import { withoutSandboxNotice } from "./test-support/cli-harness.js";
import { repositoryWith } from "../test-support/git-repository.js";

const cli = useCliFixture();

const useSubagents = (items: Array<{ prompt: string; agent?: string }>): string => `Delegating.\n<use_subagents>\n<subagents>${JSON.stringify(items)}</subagents>\n</use_subagents>`;
const complete = (result: string): string => `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>`;
const command = (text: string): string => `<execute_command>\n<command>${text}</command>\n<requires_approval>false</requires_approval>\n</execute_command>`;
const readFileCall = (path: string): string => `<read_file>\n<path>${path}</path>\n</read_file>`;

const runArgs = (extra: string[], task: string): string[] => ["run", "--provider", "anthropic", "--base-url", cli.server!.url, "--api-key", "sk-test-subagents", ...extra, task];

/** Which conversation each request belonged to, in arrival order. */
function conversationOrder(markers: string[]): string[] {
  return cli.server!.requests.map((request) => {
    const text = firstUserText((request.body as Record<string, unknown>)["messages"]);
    return markers.find((marker) => text.includes(marker)) ?? "parent";
  });
}

function requestText(index: number): string {
  return JSON.stringify(cli.server!.requests[index]?.body);
}

function pgrep(pattern: string): string {
  try {
    return execFileSync("pgrep", ["-f", pattern], { encoding: "utf8" }).trim();
  } catch {
    return "";
  }
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

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

  it(
    "a writing subagent works in its own git worktree (branch after parent and subagent, in the data folder, repository hooks off); its diff is approved and merged uncommitted; a conflicting change is reported, nothing overwritten, and kept as a patch file",
    { timeout: 90_000 },
    async () => {
      const ws = cli.sandbox.workspace;
      const gitIn = await repositoryWith(ws, { "a.txt": "original\n" });
      for (const hook of ["post-checkout", "pre-commit", "post-commit"]) {
        await writeFile(join(ws, ".git", "hooks", hook), `#!/bin/sh\ntouch "${join(cli.sandbox.root, `hook-ran-${hook}`)}"\n`, { mode: 0o755 });
      }
      await writeFile(join(ws, "untracked.txt"), "not committed yet\n");
      const write = (path: string, content: string): string => `<write_to_file>\n<path>${path}</path>\n<content>\n${content}\n</content>\n</write_to_file>`;
      const scenario: Scenario = {
        turns: [{ text: useSubagents([{ prompt: "ALPHA: change a.txt" }, { prompt: "BETA: also change a.txt" }]) }, { text: complete("merged what could be") }],
        conversations: [
          { match: "ALPHA:", turns: [{ text: readFileCall("untracked.txt") }, { text: write("a.txt", "alpha") }, { text: complete("alpha changed a.txt") }] },
          { match: "BETA:", turns: [{ text: write("a.txt", "beta"), delayMs: 20, chunkSize: 8 }, { text: complete("beta changed a.txt") }] },
        ],
      };
      const server = await cli.startServer(scenario);
      const run = startCli(runArgs(["--json"], "Change a.txt twice"), { env: cli.sandbox.env, cwd: ws, keepStdinOpen: true });
      let answered = 0;
      const answer = (): void => {
        for (const event of run
          .events()
          .filter((item) => item["type"] === "ask")
          .slice(answered)) {
          answered += 1;
          run.child.stdin?.write(`${JSON.stringify({ id: event["id"], response: "yes" })}\n`);
        }
      };
      const timer = setInterval(answer, 50);
      const status = await run.exit.finally(() => clearInterval(timer));
      expect(withoutSandboxNotice(run.stderr)).toBe("");
      expect(status).toBe(0);

      // Each child started from the workspace as it was, untracked files included.
      expect(JSON.stringify(server.requests.map((request) => request.body))).toContain("not committed yet");
      const asks = run.events().filter((event) => event["ask"] === "tool" && (event["meta"] as Record<string, unknown>)["tool"] === "subagent_merge");
      // The children's own approvals (their edits in their worktrees) named them too.
      expect(
        run
          .events()
          .filter((event) => event["ask"] === "tool" && event["subagentId"] !== undefined)
          .map((event) => event["subagentId"])
          .sort(),
      ).toEqual(["general-1", "general-2"]);
      expect(asks.map((event) => event["text"])).toEqual(["[subagent general-1] Merge its changes into the workspace (a.txt)?", "[subagent general-2] Merge its changes into the workspace (a.txt)?"]);
      const branch = (asks[0]?.["meta"] as Record<string, unknown>)["branch"];
      const parentId = String(run.events()[0]?.["taskId"]);
      expect(branch).toBe(`cairn/${parentId}/general-1`);

      // The first merge landed, uncommitted; the second did not apply: reported, nothing overwritten.
      expect(await readFile(join(ws, "a.txt"), "utf8")).toBe("alpha\n");
      expect(gitIn("status", "--porcelain")).toContain(" M a.txt");
      expect(gitIn("log", "--oneline")).toHaveLength(gitIn("log", "--oneline").split("\n")[0]!.length + 1);
      const back = requestText(server.requests.length - 1);
      expect(back).toContain('status=\\"merged\\"');
      expect(back).toContain('status=\\"conflict\\"');
      expect(back).toContain("do not apply to the workspace as it is now");
      expect(run.events().some((event) => event["say"] === "warning" && String(event["text"]).includes("general-2"))).toBe(true);
      // The refused child's work is not lost with its worktree: a patch in the data folder, named to the user and the model.
      const patch = join(cli.sandbox.dataDir, "subagent-changes", parentId, "general-2.patch");
      expect(run.events().some((event) => event["say"] === "warning" && String(event["text"]).includes(`kept in ${patch}`))).toBe(true);
      expect(back).toContain(`kept in ${patch}`);
      expect(await readFile(patch, "utf8")).toContain("+beta");

      // Each writing child took checkpoints of its own worktree.
      expect(run.events().some((event) => event["say"] === "checkpoint_created" && event["subagentId"] === "general-1")).toBe(true);
      // The repository's hooks never ran; worktrees and branches are gone when the task ends.
      for (const hook of ["post-checkout", "pre-commit", "post-commit"]) expect(existsSync(join(cli.sandbox.root, `hook-ran-${hook}`))).toBe(false);
      expect(gitIn("branch", "--list", "cairn/*")).toBe("");
      expect(gitIn("worktree", "list").trim().split("\n")).toHaveLength(1);
      expect(existsSync(join(cli.sandbox.dataDir, "worktrees", parentId, "general-1"))).toBe(false);
      expect(existsSync(join(cli.sandbox.dataDir, "worktrees", parentId, "general-2"))).toBe(false);
    },
  );

  it("resuming a parent whose children were interrupted resumes them, and reuses the reports (and unmerged changes) of those that finished", { timeout: 90_000 }, async () => {
    const delegate = useSubagents([
      { prompt: "ALPHA: write alpha.txt", agent: "general" },
      { prompt: "BETA: look slowly", agent: "explore" },
    ]);
    const scenario: Scenario = {
      turns: [{ text: delegate }, { text: delegate }, { text: complete("both reported after the resume") }],
      conversations: [
        { match: "ALPHA:", turns: [{ text: "<write_to_file>\n<path>alpha.txt</path>\n<content>\nfrom alpha\n</content>\n</write_to_file>" }, { text: complete("alpha report: wrote alpha.txt") }] },
        { match: "BETA:", turns: [{ text: "Looking slowly. ".repeat(50), stallAfterChunks: 5 }, { text: complete("beta report after its resume") }] },
      ],
    };
    const server = await cli.startServer(scenario);
    const run = startCli(runArgs(["--yes", "--json"], "Two children"), { env: cli.sandbox.env, cwd: cli.sandbox.workspace });
    await run.waitForOutput(/"subagentId":"general-1"[^\n]*"say":"completion_result"|"say":"completion_result"[^\n]*"subagentId":"general-1"/);
    await server.waitForChunks(conversationOrder(["BETA:"]).indexOf("BETA:"), 5);
    run.child.kill("SIGINT");
    expect(await run.exit).toBe(130);
    const parentId = String(run.events()[0]?.["taskId"]);
    expect(existsSync(join(cli.sandbox.workspace, "alpha.txt"))).toBe(false);

    const resumed = await cli.run(["resume", "--json", "--yes", "--provider", "anthropic", "--base-url", server.url, "--api-key", "sk-test-subagents", parentId]);
    expect(withoutSandboxNotice(resumed.stderr)).toBe("");
    expect(resumed.status).toBe(0);
    // ALPHA was not run again; BETA went on where it stopped, in its own task.
    const order = conversationOrder(["ALPHA:", "BETA:"]);
    expect(order.filter((name) => name === "ALPHA:")).toHaveLength(2);
    expect(order.filter((name) => name === "BETA:")).toHaveLength(2);
    const betaResumed = JSON.stringify(server.requests[order.lastIndexOf("BETA:")]?.body);
    expect(betaResumed).toContain("Looking slowly.");
    const links = resumed.events.filter((event) => typeof (event["meta"] as Record<string, unknown> | undefined)?.["childTaskId"] === "string").map((event) => String(event["text"]));
    expect(links.some((text) => /Subagent general-1 \(general\) had completed: its report is used again/.test(text))).toBe(true);
    expect(links.some((text) => /Subagent explore-2 \(explore\) resumed/.test(text))).toBe(true);
    // New ids after a resume never repeat the earlier run's.
    const listed = resumed.events.find((event) => Array.isArray((event["meta"] as Record<string, unknown> | undefined)?.["subagents"]));
    expect(((listed?.["meta"] as Record<string, unknown>)["subagents"] as Array<Record<string, unknown>>).map((item) => item["subagentId"])).toEqual(["general-3", "explore-4"]);
    const back = requestText(server.requests.length - 1);
    expect(back).toContain("alpha report: wrote alpha.txt");
    expect(back).toContain("beta report after its resume");
    // The finished child's changes, kept through the interruption, were merged now.
    expect(await readFile(join(cli.sandbox.workspace, "alpha.txt"), "utf8")).toBe("from alpha\n");
    expect(existsSync(join(cli.sandbox.dataDir, "worktrees", parentId, "general-1"))).toBe(false);
  });

  it("a general subagent uses the parent's MCP servers; an explore subagent is not offered them", { timeout: 90_000 }, async () => {
    await writeFile(join(cli.sandbox.configDir, "cairn", "mcp.json"), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everythingEntry, "stdio"] } } }));
    const echo = `<use_mcp_tool>\n<server_name>everything</server_name>\n<tool_name>echo</tool_name>\n<arguments>${JSON.stringify({ message: "hi from the child" })}</arguments>\n</use_mcp_tool>`;
    const scenario: Scenario = {
      turns: [{ text: useSubagents([{ prompt: "ZETA: echo through MCP" }, { prompt: "ETA: only look", agent: "explore" }]) }, { text: complete("done") }],
      conversations: [
        { match: "ZETA:", turns: [{ text: echo }, { text: complete("zeta echoed") }] },
        { match: "ETA:", turns: [{ text: complete("eta looked") }] },
      ],
    };
    const server = await cli.startServer(scenario);
    const result = await cli.run(runArgs(["--yes", "--json"], "Use MCP"));
    expect(withoutSandboxNotice(result.stderr)).toBe("");
    expect(result.status).toBe(0);
    const order = conversationOrder(["ZETA:", "ETA:"]);
    const zetaSecond = requestText(order.lastIndexOf("ZETA:"));
    expect(zetaSecond).toContain("Echo: hi from the child");
    const etaSystem = JSON.stringify((server.requests[order.indexOf("ETA:")]?.body as Record<string, unknown>)["system"]);
    expect(etaSystem).not.toContain("use_mcp_tool");
    const zetaSystem = JSON.stringify((server.requests[order.indexOf("ZETA:")]?.body as Record<string, unknown>)["system"]);
    expect(zetaSystem).toContain("## use_mcp_tool");
  });

  it("the ignore file holds in a subagent's worktree, also when git ignores the ignore file itself", { timeout: 60_000 }, async () => {
    const ws = cli.sandbox.workspace;
    await repositoryWith(ws, { "secret.txt": "the hidden value\n", ".gitignore": ".cairnignore\n", ".cairnignore": "secret.txt\n" });
    const scenario: Scenario = {
      turns: [{ text: useSubagents([{ prompt: "THETA: read the secret" }]) }, { text: complete("done") }],
      conversations: [{ match: "THETA:", turns: [{ text: readFileCall("secret.txt") }, { text: complete("could not read it") }] }],
    };
    const server = await cli.startServer(scenario);
    const result = await runCli(runArgs(["--yes", "--json"], "Try the secret"), { env: cli.sandbox.env, cwd: ws });
    expect(result.status).toBe(0);
    const sent = JSON.stringify(server.requests.map((request) => request.body));
    expect(sent).not.toContain("the hidden value");
    expect(sent).toContain("blocked by the workspace's .cairnignore");
  });

  it("the parent's PreToolUse hooks hold for a subagent's tools", { timeout: 60_000 }, async () => {
    const hooks = { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo refused-by-the-hook >&2; exit 2" }] }] };
    await writeFile(join(cli.sandbox.configDir, "cairn", "config.json"), JSON.stringify({ retry: { delaysMs: [10, 20, 40] }, hooks }));
    const scenario: Scenario = {
      turns: [{ text: useSubagents([{ prompt: "IOTA: run a command" }]) }, { text: complete("done") }],
      conversations: [{ match: "IOTA:", turns: [{ text: command("echo ran > ran.txt") }, { text: complete("iota stopped") }] }],
    };
    await cli.startServer(scenario);
    const result = await cli.run(runArgs(["--yes", "--json"], "Hooked"));
    expect(result.status).toBe(0);
    const order = conversationOrder(["IOTA:"]);
    expect(requestText(order.lastIndexOf("IOTA:"))).toContain("refused-by-the-hook");
    expect(result.events.some((event) => event["say"] === "info" && String(event["text"]).startsWith("Subagent general-1 completed"))).toBe(true);
  });
});
