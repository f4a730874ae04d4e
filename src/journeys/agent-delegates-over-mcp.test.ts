/**
 * Journey: another agent delegates a task to cairn over MCP (docs/journeys.md, "Another agent delegates to cairn
 * over MCP"). The other agent is cairn itself: a `cairn run` whose MCP configuration lists `cairn mcp serve`
 * as a stdio server; its model starts a task there and takes the result with the patch. Both cairns talk to
 * the scripted model over real HTTP. Runs bin/cairn (dist/): `npm run build` first.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cairnBin, runCli } from "../cli/test-support/cli-harness.js";
import type { ScriptedServer } from "../llm/scripted/server.js";
import { conversationRequests, lastToolResult, say, serveConversations } from "./test-support/model-turns.js";
import { makeUserMachine, type UserMachine } from "./test-support/user-machine.js";

const apiKey = "sk-journey-delegate-0123456789";
const outerTask = "Hand the changelog to the delegate and report what it changed";
const innerTask = "Add CHANGELOG.md with a section for release 1.2";

let machine: UserMachine;
let model: ScriptedServer;

const cairn = (args: string[]): ReturnType<typeof runCli> => runCli(args, { env: machine.env, cwd: machine.workspace });

beforeAll(async () => {
  machine = await makeUserMachine({ project: "shop" });
  await machine.put(join(machine.workspace, "README.md"), "# shop\n");
  machine.commitAll("start");
  model = await serveConversations([
    { match: innerTask, turns: [say.write("CHANGELOG.md", "## 1.2\n\n- Faster checkout"), say.complete("CHANGELOG.md has the 1.2 section.")] },
    {
      match: outerTask,
      turns: [
        say.mcp("delegate", "start_task", { folder: machine.workspace, task: innerTask, permissionMode: "acceptEdits" }),
        // The delegate keeps its tasks in a data folder of its own, where this is the only one: a prefix of its id names it.
        say.mcp("delegate", "get_result", { taskId: "20", waitSeconds: 50 }),
        say.complete("The delegate added CHANGELOG.md."),
      ],
    },
  ]);
  // The user's MCP servers: a second cairn, on the same provider, allowed to start tasks and give their results.
  await machine.put(join(machine.cairnConfigDir, "mcp.json"), {
    mcpServers: {
      delegate: {
        command: process.execPath,
        args: [cairnBin, "mcp", "serve", "--provider", "anthropic", "--base-url", model.url, "--data-dir", join(machine.home, ".cairn-delegate")],
        env: { ANTHROPIC_API_KEY: apiKey },
        autoApprove: ["start_task", "get_result"],
      },
    },
  });
});

afterAll(async () => {
  await model?.close();
  await machine?.cleanup();
});

describe("journey: another agent delegates to cairn over MCP", () => {
  it("the outer task starts a task in cairn mcp serve, which writes the file; the outer task gets its result and patch", { timeout: 90_000 }, async () => {
    // A stdio MCP server runs in the client's sandbox (no network, a read-only home): this user turned it off.
    expect((await cairn(["sandbox", "disable"])).status).toBe(0);
    const run = await cairn(["run", "--provider", "anthropic", "--base-url", model.url, "--api-key", apiKey, outerTask]);
    expect(run.status).toBe(0);
    expect(await readFile(join(machine.workspace, "CHANGELOG.md"), "utf8")).toBe("## 1.2\n\n- Faster checkout\n");

    const outer = conversationRequests(model, outerTask);
    const started = lastToolResult(outer[1]);
    expect(started).toMatch(/taskId[^,]*20\d\d-/);
    const result = lastToolResult(outer[2]);
    expect(result).toContain("completed");
    expect(result).toContain("CHANGELOG.md has the 1.2 section.");
    expect(result).toContain("+## 1.2");
    expect(run.stdout).toContain("The delegate added CHANGELOG.md.");
    // The inner task ran once, as its own conversation with the model, and is kept in the delegate's data folder.
    expect(conversationRequests(model, innerTask)).toHaveLength(2);
    const history = await cairn(["history", "--data-dir", join(machine.home, ".cairn-delegate")]);
    expect(history.stdout).toContain(innerTask);
    expect(history.stdout).toContain("completed");
  });
});
