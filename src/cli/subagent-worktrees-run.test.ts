/**
 * Subagents through the real CLI: a writing child's own worktree and its
 * merge, children resumed with their parent, MCP servers, ignore files and
 * the parent's hooks in a child.
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Scenario } from "../llm/scripted/scenario.js";
import { runCli, startCli } from "./test-support/cli-harness.js";
import { useCliFixture } from "./test-support/cli-fixture.js";
import { everythingEntry } from "../mcp/test-support/servers.js";
import { withoutSandboxNotice } from "./test-support/cli-harness.js";
import { repositoryWith } from "../test-support/git-repository.js";
import { command, complete, readFileCall, subagentRunHelpers, useSubagents } from "./test-support/subagent-runs.js";

const cli = useCliFixture();
const { runArgs, conversationOrder, requestText } = subagentRunHelpers(cli);

describe("subagents in their own worktrees through the real CLI", () => {
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
