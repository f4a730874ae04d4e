/**
 * `cairn serve` through the real CLI, its HTTP API and a scripted model:
 * tasks started over HTTP, followed by several clients, answered by the first
 * of them, reconnected without loss, and surviving a killed server.
 */
import { JsonEventReader } from "../ui/headless/json-events-reader.js";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { useCliFixture } from "../cli/test-support/cli-fixture.js";
import type { Scenario } from "../llm/scripted/scenario.js";
import { copiedTasks } from "../store/test-support/copied-tasks.js";
import { TaskStore } from "../store/task-store.js";
import type { ServerEvent } from "./test-support/event-client.js";
import { startServe, startTask } from "./test-support/serve-fixture.js";
import { startOtlpReceiver } from "../telemetry/test-support/otlp-receiver.js";

const cli = useCliFixture();

const writeHello = { text: "Let me write it.\n<write_to_file>\n<path>hello.txt</path>\n<content>\nhello\n</content>\n</write_to_file>", chunkSize: 12, delayMs: 5 };
const askColor = { text: "<ask_followup_question>\n<question>Which color?</question>\n</ask_followup_question>" };
const complete = { text: "<attempt_completion>\n<result>\nAll done.\n</result>\n</attempt_completion>" };
const scenario: Scenario = { turns: [writeHello, askColor, complete] };

const isAsk =
  (ask: string) =>
  (event: ServerEvent): boolean =>
    event.data["type"] === "ask" && event.data["ask"] === ask && event.data["partial"] === false;
const isStatus = (status: string) => (event: ServerEvent) => event.data["type"] === "status" && event.data["status"] === status;

/** The final messages a stream says, folded by id as a client keeps them (a final state may come as a delta). */
function finalTexts(events: ServerEvent[]): Map<string, string> {
  const reader = new JsonEventReader();
  for (const { data } of events) reader.push(data);
  return new Map([...reader.messages.values()].filter((message) => !message.partial).map((message) => [message.id, message.text]));
}

describe("cairn serve: tasks over HTTP that many clients follow and steer", () => {
  it("two clients follow one task: each sees it stream, the approval's diff, and an ask answered by the other; a second answer is refused", async () => {
    const model = await cli.startServer(scenario);
    const serve = await startServe(cli, model);
    const alice = serve.client("alice");
    const bob = serve.client("bob");
    const taskId = await startTask(alice, cli.sandbox.workspace);
    const aliceEvents = alice.follow(taskId);
    const bobEvents = bob.follow(taskId);

    const approval = await aliceEvents.next(isAsk("tool"));
    expect(String(approval.data["text"])).toContain("+hello");
    await bobEvents.next(isAsk("tool"));
    // Partial updates streamed before the text was final, without an id of their own.
    expect(aliceEvents.events.some((event) => event.data["partial"] === true && event.id === undefined)).toBe(true);
    const askId = String(approval.data["id"]);
    expect((await bob.call("GET", "/api/tasks")).body["tasks"]).toMatchObject([{ taskId, running: true, openAsk: askId }]);

    expect((await bob.call("POST", `/api/tasks/${taskId}/answer`, { askId, response: "yes" })).status).toBe(200);
    const late = await alice.call("POST", `/api/tasks/${taskId}/answer`, { askId, response: "no" });
    expect(late.status).toBe(409);
    expect(String(late.body["error"])).toContain("answered already");
    const answered = await aliceEvents.next((event) => event.data["type"] === "answered");
    expect(answered.data).toMatchObject({ askId, response: "yes", by: "bob" });
    await aliceEvents.next((event) => event.data["type"] === "state" && event.data["openAsk"] === null);

    const question = await bobEvents.next(isAsk("followup"));
    expect(await readFile(join(cli.sandbox.workspace, "hello.txt"), "utf8")).toBe("hello\n");
    expect((await alice.call("POST", `/api/tasks/${taskId}/answer`, { askId: question.data["id"], response: "message", text: "blue" })).status).toBe(200);
    await aliceEvents.next(isStatus("completed"));
    await bobEvents.next((event) => event.data["type"] === "result");
    expect([...finalTexts(bobEvents.events).values()]).toEqual(expect.arrayContaining(["blue", "All done."]));
    // Both saw the same log entries, numbered 1, 2, 3 ... with none missing.
    expect(aliceEvents.ids()).toEqual(bobEvents.ids());
    aliceEvents.close();
    bobEvents.close();
    // The numbers of `cairn usage` (#36): the task's three requests and three tool calls, its tokens and cost.
    const [row] = await new TaskStore({ dataDir: cli.sandbox.dataDir }).list();
    const usage = await bob.call("GET", "/api/usage?since=1d&by=day");
    expect(usage.body["total"]).toMatchObject({ tasks: 1, requests: 3, toolCalls: 3, tokensIn: row?.tokensIn, cost: row?.cost });
    expect((await bob.call("GET", "/api/usage?by=week")).status).toBe(400);
  }, 60_000);

  it("a client that reconnects with the last number it saw gets exactly the entries it missed; all of them are the task's log", async () => {
    const model = await cli.startServer(scenario);
    const serve = await startServe(cli, model);
    const client = serve.client();
    const taskId = await startTask(client, cli.sandbox.workspace);
    const first = client.follow(taskId);
    const approval = await first.next(isAsk("tool"));
    first.close();
    const lastSeen = approval.id!;

    // While nobody follows, the task goes on to its next ask.
    await client.call("POST", `/api/tasks/${taskId}/answer`, { askId: approval.data["id"], response: "yes" });
    const watcher = client.follow(taskId);
    const question = await watcher.next(isAsk("followup"));
    watcher.close();

    const again = client.follow(taskId, { lastEventId: lastSeen });
    await again.next((event) => event.id === question.id);
    const ids = [...first.ids().filter((id) => id <= lastSeen), ...again.ids()];
    expect(new Set(ids).size).toBe(ids.length);
    expect(again.ids().every((id) => id > lastSeen)).toBe(true);
    // From the start, the stream says every message of the log in its final state.
    const whole = client.follow(taskId, { lastEventId: 0 });
    await whole.next((event) => event.id === question.id);
    const logged = (await new TaskStore({ dataDir: cli.sandbox.dataDir }).load(taskId)).uiMessages;
    expect(Object.fromEntries(finalTexts(whole.events))).toEqual(Object.fromEntries(logged.map((message) => [message.id, message.text])));
    expect(again.ids()).toEqual(whole.ids().filter((id) => id > lastSeen));
    again.close();
    whole.close();
  }, 60_000);

  it("a task started with a traceparent header continues the caller's trace (OpenTelemetry on, #36)", async () => {
    const collector = await startOtlpReceiver();
    cli.stopAfterTest(() => collector.close());
    await writeFile(join(cli.sandbox.configDir, "cairn", "config.json"), JSON.stringify({ sandbox: "off", telemetry: { endpoint: collector.url, protocol: "http/json" } }));
    const model = await cli.startServer({ turns: [complete] });
    const serve = await startServe(cli, model);
    const client = serve.client();
    const started = await client.call("POST", "/api/tasks", { prompt: "finish", cwd: cli.sandbox.workspace }, { traceparent: "00-5bf92f3577b34da6a3ce929d0e0e4736-10f067aa0ba902b7-01" });
    const events = client.follow(String(started.body["taskId"]));
    await events.next(isStatus("completed"));
    events.close();
    const deadline = Date.now() + 15_000;
    while (!collector.spans.some((span) => span.name === "cairn.task") && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(collector.spans.find((span) => span.name === "cairn.task")).toMatchObject({ traceId: "5bf92f3577b34da6a3ce929d0e0e4736", parentSpanId: "10f067aa0ba902b7" });
  }, 60_000);

  it("lists the newest tasks of a long history, as many as asked, newest first", async () => {
    await copiedTasks(new TaskStore({ dataDir: cli.sandbox.dataDir }), 300);
    const model = await cli.startServer(scenario);
    const serve = await startServe(cli, model);
    const client = serve.client();
    const listed = (await client.call("GET", "/api/tasks?limit=2")).body["tasks"] as Array<{ taskId: string; running: boolean }>;
    expect(listed.map((row) => row.taskId)).toEqual(["copy-00299", "copy-00298"]);
    // Again once the index has been compacted (the first listing did that): the same rows, now from its end.
    expect((await client.call("GET", "/api/tasks?limit=2")).body["tasks"]).toEqual(listed);
    expect((await client.call("GET", "/api/tasks")).body["tasks"]).toHaveLength(200);
  }, 60_000);

  it("killed with kill -9 while a task waits, started again: the task is listed as stopped, its events replay with the same numbers, and it resumes to completion", async () => {
    const model = await cli.startServer({ turns: [askColor, complete] });
    // A fixed token: a browser's cookie stays good across the restart.
    cli.sandbox.env["CAIRN_SERVER_TOKEN"] = "a-fixed-token-for-this-test-0123456789";
    const serve = await startServe(cli, model);
    expect(serve.token).toBe("a-fixed-token-for-this-test-0123456789");
    const client = serve.client();
    const taskId = await startTask(client, cli.sandbox.workspace, "pick a color");
    const before = client.follow(taskId);
    await before.next(isAsk("followup"));
    const seenBefore = before.events.filter((event) => event.id !== undefined).map((event) => [event.id, event.data["id"]]);
    serve.run.child.kill("SIGKILL");
    await serve.run.exit;

    const restarted = await startServe(cli, model);
    const after = restarted.client();
    expect((await after.call("GET", "/api/tasks")).body["tasks"]).toMatchObject([{ taskId, running: false, status: "aborted" }]);
    expect(restarted.token).toBe(serve.token);
    expect((await after.call("GET", `/api/tasks/${taskId}`)).body["task"]).toMatchObject({ taskId, running: false, status: "aborted" });
    const replay = after.follow(taskId);
    await replay.next((event) => event.data["type"] === "state");
    expect(replay.events.filter((event) => event.id !== undefined).map((event) => [event.id, event.data["id"]])).toEqual(seenBefore);

    expect((await after.call("POST", `/api/tasks/${taskId}/resume`, {})).status).toBe(202);
    await replay.next(isStatus("completed"));
    // The question nobody answered was cut from the conversation (as `cairn resume` does), and the model went on.
    expect(replay.events.find((event) => event.data["type"] === "truncate")?.data).toMatchObject({ count: 2 });
    expect([...finalTexts(replay.events).values()]).toContain("All done.");
    expect(replay.ids()).toEqual([...replay.ids()].sort((a, b) => a - b));
    replay.close();
  }, 60_000);

  it("undo and restore over HTTP put the files back and every client sees the conversation cut; a message to the stopped task resumes it", async () => {
    const model = await cli.startServer({ turns: [writeHello, complete, complete] });
    const serve = await startServe(cli, model);
    const client = serve.client();
    const taskId = await startTask(client, cli.sandbox.workspace);
    const events = client.follow(taskId);
    const approval = await events.next(isAsk("tool"));
    await client.call("POST", `/api/tasks/${taskId}/answer`, { askId: approval.data["id"], response: "yes" });
    await events.next(isStatus("completed"));

    const listed = await client.call("GET", `/api/tasks/${taskId}/checkpoints`);
    const checkpoints = listed.body["checkpoints"] as Array<{ hash: string }>;
    const diff = await fetch(`${serve.url}/api/tasks/${taskId}/diff?from=${checkpoints.at(-1)!.hash}`, { headers: { authorization: `Bearer ${serve.token}` } });
    expect(await diff.text()).toContain("+hello");
    // /undo over HTTP takes the task's last step back; a second one finds nothing left to undo.
    const undone = await client.call("POST", `/api/tasks/${taskId}/undo`, {});
    expect(undone.body).toMatchObject({ undone: true, text: expect.stringContaining("removed hello.txt") });
    await expect(readFile(join(cli.sandbox.workspace, "hello.txt"), "utf8")).rejects.toThrow();
    expect((await client.call("POST", `/api/tasks/${taskId}/undo`, {})).body).toMatchObject({ undone: false, text: expect.stringContaining("Nothing to undo") });
    // The first checkpoint is the workspace before the task wrote anything.
    const restored = await client.call("POST", `/api/tasks/${taskId}/restore`, { checkpoint: checkpoints.at(-1)!.hash, mode: "both" });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    await expect(readFile(join(cli.sandbox.workspace, "hello.txt"), "utf8")).rejects.toThrow();
    const cut = await events.next((event) => event.data["type"] === "truncate");
    expect(Number(cut.data["count"])).toBeGreaterThan(0);

    expect((await client.call("POST", `/api/tasks/${taskId}/messages`, { text: "and now finish" })).status).toBe(202);
    const said = await events.next((event) => event.data["say"] === "user_feedback" && event.data["partial"] === false);
    expect(said.data["text"]).toBe("and now finish");
    await events.next((event) => isStatus("completed")(event) && event.id! > cut.id!);
    events.close();
  }, 60_000);

  it("plan and act (and the model of the next run) switched over HTTP: both clients see it, the next request carries the plan prompt and tools, and the log keeps it across a killed server and a resume", async () => {
    const planRespond = { text: "<plan_mode_respond>\n<response>\nThe plan: paint it blue.\n</response>\n</plan_mode_respond>" };
    const model = await cli.startServer({ turns: [askColor, planRespond, complete] });
    cli.sandbox.env["CAIRN_SERVER_TOKEN"] = "a-fixed-token-for-the-mode-test-0123456789";
    const serve = await startServe(cli, model);
    const alice = serve.client("alice");
    const bob = serve.client("bob");
    const taskId = await startTask(alice, cli.sandbox.workspace, "pick a color");
    const aliceEvents = alice.follow(taskId);
    const bobEvents = bob.follow(taskId);
    await aliceEvents.next(isAsk("followup"));
    expect((await bob.call("GET", "/api/tasks")).body["tasks"]).toMatchObject([{ taskId, mode: "act" }]);

    const bad = await alice.call("POST", `/api/tasks/${taskId}/mode`, { mode: "sideways" });
    expect(bad.status).toBe(400);
    expect(String(bad.body["error"])).toContain('"plan"');
    expect((await alice.call("POST", "/api/tasks/no-such-task/mode", { mode: "plan" })).status).toBe(404);
    expect((await alice.call("POST", `/api/tasks/${taskId}/mode`, { mode: "plan" })).body).toEqual({ mode: "plan", changed: true });
    // Bob sees the switch as a logged message (with its number) and in the task's state.
    const switched = await bobEvents.next((event) => event.data["say"] === "info" && event.data["partial"] === false);
    expect(switched.id).toBeDefined();
    expect(switched.data["meta"]).toEqual({ mode: "plan", by: "alice" });
    await bobEvents.next((event) => event.data["type"] === "state" && event.data["mode"] === "plan");
    expect((await bob.call("GET", "/api/tasks")).body["tasks"]).toMatchObject([{ taskId, mode: "plan" }]);
    // The model for the task's next run (as the terminal's /model): told to every client, kept in the log.
    expect((await alice.call("POST", `/api/tasks/${taskId}/model`, { model: "two words" })).status).toBe(400);
    expect((await alice.call("POST", `/api/tasks/${taskId}/model`, { model: "claude-haiku-5" })).body).toMatchObject({ model: "claude-haiku-5" });
    await bobEvents.next((event) => event.data["say"] === "info" && (event.data["meta"] as { model?: string } | undefined)?.model === "claude-haiku-5");
    expect((await bob.call("GET", `/api/tasks/${taskId}`)).body["task"]).toMatchObject({ model: "claude-sonnet-5-5" });
    aliceEvents.close();
    bobEvents.close();

    serve.run.child.kill("SIGKILL");
    await serve.run.exit;
    const restarted = await startServe(cli, model);
    const client = restarted.client("carol");
    expect((await client.call("GET", `/api/tasks/${taskId}`)).body["task"]).toMatchObject({ running: false, mode: "plan", model: "claude-haiku-5" });
    const stopped = await client.call("POST", `/api/tasks/${taskId}/mode`, { mode: "act" });
    expect(stopped.status).toBe(409);
    expect(String(stopped.body["error"])).toContain("resume it");

    // Resumed by a message: in plan mode, as the log left it.
    const events = client.follow(taskId);
    expect((await client.call("POST", `/api/tasks/${taskId}/messages`, { text: "blue" })).status).toBe(202);
    const plan = await events.next(isAsk("plan_mode_respond"));
    const systemOf = (index: number): string => JSON.stringify((model.requests[index]?.body as { system?: unknown }).system);
    expect(systemOf(0)).toContain("# Tools (act mode)");
    expect(systemOf(1)).toContain("# Tools (plan mode)");
    expect(systemOf(1)).toContain("You are in PLAN MODE");
    expect([(model.requests[0]?.body as { model?: string }).model, (model.requests[1]?.body as { model?: string }).model]).toEqual(["claude-sonnet-5-5", "claude-haiku-5"]);
    // Approving the plan switches the task to act: the clients are told who switched it.
    await client.call("POST", `/api/tasks/${taskId}/answer`, { askId: plan.data["id"], response: "yes" });
    await events.next((event) => event.data["type"] === "state" && event.data["mode"] === "act");
    await events.next(isStatus("completed"));
    expect(systemOf(2)).toContain("# Tools (act mode)");
    const logged = (await new TaskStore({ dataDir: cli.sandbox.dataDir }).load(taskId)).uiMessages
      .filter((message) => message.type === "say" && message.say === "info" && message.meta?.["mode"] !== undefined)
      .map((message) => message.meta);
    expect(logged).toEqual([
      { mode: "plan", by: "alice" },
      { mode: "act", by: "the task" },
    ]);
    events.close();
  }, 60_000);

  it("a running task's MCP prompts are listed over HTTP, and one sent to it as a message reaches the model expanded", async () => {
    const bistro = fileURLToPath(new URL("../mcp/test-support/eliciting-server.js", import.meta.url));
    await mkdir(join(cli.sandbox.configDir, "cairn"), { recursive: true });
    await writeFile(join(cli.sandbox.configDir, "cairn", "mcp.json"), JSON.stringify({ mcpServers: { bistro: { command: process.execPath, args: [bistro] } } }));
    const model = await cli.startServer({ turns: [askColor, complete] });
    const serve = await startServe(cli, model);
    const client = serve.client();
    const taskId = await startTask(client, cli.sandbox.workspace, "pick a color");
    const events = client.follow(taskId);
    const question = await events.next(isAsk("followup"));
    let prompts: Array<Record<string, unknown>> = [];
    // The task's MCP server connects while the task starts: the list fills once it has.
    for (const deadline = Date.now() + 20_000; prompts.length === 0 && Date.now() < deadline;) {
      prompts = (await client.call("GET", `/api/tasks/${taskId}/prompts`)).body["prompts"] as Array<Record<string, unknown>>;
      if (prompts.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(prompts).toEqual([expect.objectContaining({ command: "/mcp__bistro__welcome", description: "Greets the guest (MCP prompt of bistro)", usage: "" })]);
    expect((await client.call("POST", `/api/tasks/${taskId}/messages`, { text: "/mcp__bistro__welcome" })).status).toBe(202);
    // Its expansion (a prompts/get to the MCP server) starts now; a message still expanding at a tool boundary waits for the next one, so the answer comes a moment later.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await client.call("POST", `/api/tasks/${taskId}/answer`, { askId: question.data["id"], response: "message", text: "blue" });
    await events.next((event) => event.data["type"] === "result");
    const next = JSON.stringify(model.requests[1]?.body);
    expect(next).toContain("Welcome");
    expect(next).not.toContain("/mcp__bistro__welcome");
    expect((await client.call("GET", `/api/tasks/${taskId}/prompts`)).body).toEqual({ running: false, prompts: [] });
    events.close();
  }, 60_000);
});
