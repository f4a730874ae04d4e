/**
 * Journey: a web developer's task needs the dev server running while the
 * model checks a page (#31). With the sandbox on (and its network, which the
 * page's fetch needs), in the XML protocol, headless: `npm run dev` in the
 * foreground times out and the model is told to run it in the background;
 * started so, it keeps running while a later command reaches it; the model
 * reads its log; the run ends it and lists it in the result (bin/cairn: run
 * `npm run build` first).
 */
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { anthropicArgs, useCliFixture } from "../cli/test-support/cli-fixture.js";
import { runCli } from "../cli/test-support/cli-harness.js";
import { checkBubblewrap } from "../security/sandbox.js";
import { pgrep } from "../cli/test-support/subagent-runs.js";

const cli = useCliFixture({
  prepare: async (sandbox) => {
    // The sandbox as installed (on), unlike the other CLI tests.
    await writeFile(join(sandbox.configDir, "cairn", "config.json"), JSON.stringify({ retry: { delaysMs: [10, 20, 40] } }));
    await writeFile(join(sandbox.workspace, "package.json"), JSON.stringify({ name: "shop", private: true, scripts: { dev: "node server.js" } }));
    await writeFile(
      join(sandbox.workspace, "server.js"),
      [
        'const server = require("node:http").createServer((request, response) => { console.log("GET " + request.url); response.end("<h1>Shop</h1>"); });',
        'server.listen(0, "127.0.0.1", () => { require("node:fs").writeFileSync("port.txt", String(server.address().port)); console.log("ready on " + server.address().port); });',
      ].join("\n"),
    );
    // The check waits for the server as a developer's script does: it tries again until the page answers.
    await writeFile(
      join(sandbox.workspace, "check.js"),
      [
        "const deadline = Date.now() + 20000;",
        'const attempt = () => fetch("http://127.0.0.1:" + require("node:fs").readFileSync("port.txt", "utf8") + "/cart").then((r) => r.text());',
        'const check = () => attempt().then((t) => console.log("page: " + t), (error) => (Date.now() < deadline ? setTimeout(check, 200) : console.log("no page: " + error.message)));',
        "check();",
      ].join("\n"),
    );
  },
});

const tool = (name: string, params: Record<string, string>): { text: string } => ({
  text: `<${name}>\n${Object.entries(params)
    .map(([key, value]) => `<${key}>${value}</${key}>`)
    .join("\n")}\n</${name}>`,
});

/** The last message of a request: the tool's result and the environment details. */
const lastMessage = (body: unknown): string => {
  const messages = (body as { messages?: Array<{ content?: unknown }> } | undefined)?.messages ?? [];
  return JSON.stringify(messages[messages.length - 1]?.content ?? "");
};

describe.skipIf(!checkBubblewrap().ok)("journey: a dev server in the background", () => {
  it("npm run dev times out in the foreground with a hint, runs in the background in the sandbox, serves a later command, is read, and is ended with the run", async () => {
    const server = await cli.startServer({
      turns: [
        tool("execute_command", { command: "npm run dev", requires_approval: "false", timeout: "3" }),
        tool("execute_command", { command: "npm run dev", requires_approval: "false", background: "true" }),
        tool("execute_command", { command: "node check.js", requires_approval: "false" }),
        tool("read_process_output", { process_id: "p1", lines: "1" }),
        tool("attempt_completion", { result: "The cart page renders." }),
      ],
    });
    const run = await runCli([...anthropicArgs(server), "-p", "--json", "--yes", "--tool-protocol", "xml", "check the cart page"], { env: cli.sandbox.env, cwd: cli.sandbox.workspace });
    expect(run.status, run.stderr).toBe(0);

    // In the foreground it was stopped at its timeout, and the model was told to use the background.
    expect(lastMessage(server.requests[1]?.body)).toMatch(/did not finish within 3 s.*Run it again with background set to true/);
    // In the background: the call returned at once (within its settle of 2 s) with the id, and what it printed by then.
    const started = lastMessage(server.requests[2]?.body);
    expect(started).toContain("Started in the background as process p1");
    expect(started).toMatch(/Output so far:\\n|It printed no output yet/);
    // A later command, in another sandbox, reached it over the loopback the commands share.
    const checked = lastMessage(server.requests[3]?.body);
    expect(checked).toContain("page: <h1>Shop</h1>");
    expect(checked).toMatch(/- p1 \(running for \d+ s\): npm run dev/);
    // Its last line is the request the check made.
    expect(lastMessage(server.requests[4]?.body)).toMatch(/is still running.*Its last 1 lines:\\nGET \/cart/);

    // The run ended it: the result lists it, its process is gone; its log is in the task's data folder.
    const lines = run.events;
    const result = lines[lines.length - 1];
    expect(result).toMatchObject({ type: "result", status: "completed", processes: [{ id: "p1", command: "npm run dev", state: "stopped", endedAtExit: true }] });
    expect(pgrep("^node server.js$")).toBe("");
    const logs = await readdir(join(cli.sandbox.dataDir, "tasks", String(result?.["taskId"]), "processes"));
    expect(logs).toEqual(["p1.log"]);
  }, 90_000);
});
