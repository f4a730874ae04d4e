import { readFile, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isAlive, killLeftovers } from "../tools/test-support/processes.js";
import { anthropicArgs, useCliFixture } from "./test-support/cli-fixture.js";

const cli = useCliFixture({
  prepare: async (sandbox) => {
    // A small dev server: it says where it listens, answers every request, and logs each one.
    await writeFile(
      join(sandbox.workspace, "server.js"),
      [
        'const http = require("node:http");',
        'const fs = require("node:fs");',
        'const server = http.createServer((request, response) => { console.log("request " + request.url); response.end("hello from the dev server"); });',
        'server.listen(0, "127.0.0.1", () => { fs.writeFileSync("server.pid", String(process.pid)); fs.writeFileSync("port.txt", String(server.address().port)); console.log("listening on " + server.address().port); });',
      ].join("\n"),
    );
    await writeFile(join(sandbox.workspace, "tick.js"), 'setInterval(() => console.log("tick"), 100);\n');
    // A later command that reaches it.
    await writeFile(join(sandbox.workspace, "fetch.js"), 'fetch("http://127.0.0.1:" + require("node:fs").readFileSync("port.txt", "utf8") + "/page").then((r) => r.text()).then((t) => console.log("got: " + t));\n');
  },
});

const fetchPage = "node fetch.js";

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** What the model got in a request's last message: the tool's result and the environment details. */
function toolResults(body: unknown): string {
  const messages = (body as { messages?: Array<{ content?: unknown }> } | undefined)?.messages ?? [];
  return JSON.stringify(messages[messages.length - 1]?.content ?? "");
}

describe("a dev server started in the background", () => {
  it("keeps running for later commands, is read and stopped by the model, and is ended with the run", async () => {
    const server = await cli.startServer({
      turns: [
        { toolCalls: [{ id: "call_0", name: "execute_command", arguments: { command: "node server.js", requires_approval: false, background: true } }] },
        { toolCalls: [{ id: "call_1", name: "execute_command", arguments: { command: fetchPage, requires_approval: false } }] },
        { toolCalls: [{ id: "call_2", name: "read_process_output", arguments: { process_id: "p1" } }] },
        { toolCalls: [{ id: "call_3", name: "execute_command", arguments: { command: "node tick.js", requires_approval: false, background: true } }] },
        { toolCalls: [{ id: "call_4", name: "stop_process", arguments: { process_id: "p2" } }] },
        { toolCalls: [{ id: "call_5", name: "attempt_completion", arguments: { result: "the server answers" } }] },
      ],
    });
    const result = await cli.run(["run", "--json", "--yes", "--tool-protocol", "native", ...anthropicArgs(server), "--model", "claude-sonnet-5-5", "serve the page"]);
    const pid = Number((await readFile(join(cli.sandbox.workspace, "server.pid"), "utf8").catch(() => "0")).trim());
    if (pid > 0) cli.stopAfterTest(() => killLeftovers([pid]));
    expect(result.status, result.stderr).toBe(0);
    const port = Number((await readFile(join(cli.sandbox.workspace, "port.txt"), "utf8")).trim());

    // The start returned at once with the id and the first line of output (unless the machine is so slow that the server printed nothing within the settle).
    const started = toolResults(server.requests[1]?.body);
    expect(started).toContain("Started in the background as process p1");
    expect(started).toMatch(new RegExp(`listening on ${port}|It printed no output yet`));
    // The server ran while the next command reached it.
    expect(toolResults(server.requests[2]?.body)).toContain("got: hello from the dev server");
    // It is listed in the environment details, with its last line.
    expect(toolResults(server.requests[2]?.body)).toMatch(/# Background processes\\n- p1 \(running for \d+ s\): node server\.js/);
    // read_process_output: what it printed since the start.
    const read = toolResults(server.requests[3]?.body);
    expect(read).toContain("is still running");
    expect(read).toContain("request /page");
    expect(read).not.toContain(started.includes("listening on") ? "listening on" : "(nothing was printed before the start)");
    // stop_process ends the second one.
    expect(toolResults(server.requests[5]?.body)).toMatch(/Process p2 \(node tick\.js\) was stopped after \d+ s, with everything it started/);
    expect(toolResults(server.requests[5]?.body)).toMatch(/- p2 \(was stopped after \d+ s\)/);

    // The run ended the server: its port is closed, its process gone, and the result lists both.
    expect(await portOpen(port)).toBe(false);
    expect(isAlive(pid)).toBe(false);
    const events = result.events;
    const last = events[events.length - 1];
    expect(last).toMatchObject({
      type: "result",
      status: "completed",
      processes: [
        { id: "p1", command: "node server.js", state: "stopped", endedAtExit: true },
        { id: "p2", state: "stopped", endedAtExit: false },
      ],
    });
    // Its output went to a file in the task's data folder.
    const log = await readFile(join(cli.sandbox.dataDir, "tasks", String(last?.["taskId"]), "processes", "p1.log"), "utf8").catch(() => undefined);
    expect(log ?? "").toContain("request /page");
  }, 60_000);

  it("in text mode the run names the process it ended, and the summary counts it; a resumed task is told it no longer runs", async () => {
    const server = await cli.startServer({
      turns: [
        { toolCalls: [{ id: "call_0", name: "execute_command", arguments: { command: "node server.js", requires_approval: false, background: true } }] },
        { toolCalls: [{ id: "call_1", name: "attempt_completion", arguments: { result: "started" } }] },
        { toolCalls: [{ id: "call_2", name: "read_process_output", arguments: { process_id: "p1" } }] },
        { toolCalls: [{ id: "call_3", name: "attempt_completion", arguments: { result: "done" } }] },
      ],
    });
    const first = await cli.run(["run", "--yes", "--tool-protocol", "native", ...anthropicArgs(server), "--model", "claude-sonnet-5-5", "start the server"]);
    const pid = Number((await readFile(join(cli.sandbox.workspace, "server.pid"), "utf8").catch(() => "0")).trim());
    if (pid > 0) cli.stopAfterTest(() => killLeftovers([pid]));
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/cairn: ended background process p1 \(node server\.js\) after \d+ s/);
    expect(first.stderr.trim().split("\n").at(-1)).toMatch(/^completed · .* · 1 background process ended · /);
    expect(isAlive(pid)).toBe(false);

    const taskId = /^task (\S+)$/m.exec(first.stderr)?.[1] ?? "";
    const resumed = await cli.run(["resume", taskId, "--yes", "--tool-protocol", "native", ...anthropicArgs(server), "--model", "claude-sonnet-5-5", "is it up?"]);
    expect(resumed.status, resumed.stderr).toBe(0);
    const request = toolResults(server.requests[2]?.body);
    expect(request).toContain("no longer running");
    expect(toolResults(server.requests[3]?.body)).toContain('there is no background process \\"p1\\"');
  }, 60_000);
});
