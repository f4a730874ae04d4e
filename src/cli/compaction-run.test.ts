import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { LoggedRequest, ScriptedServer } from "../llm/scripted/server.js";
import type { Scenario, ScenarioTurn } from "../llm/scripted/scenario.js";
import { TaskStore } from "../store/task-store.js";
import { jsonEventProblems } from "../ui/headless/test-support/json-events-schema.js";
import { useCliFixture } from "./test-support/cli-fixture.js";

/** cairn's summary requests start with these words (src/context/summary-request.ts). */
const summaryRoute = "You condense the conversation of an autonomous coding agent";

const cli = useCliFixture();
const serve = (scenario: Scenario): Promise<ScriptedServer> => cli.startServer(scenario);

/** A user config with a "small" profile: the scripted server, and a small context window. */
async function configure(server: ScriptedServer, options: { contextWindow: number; context?: Record<string, unknown>; autoApprove?: Record<string, boolean>; api?: "anthropic" | "openai" }): Promise<void> {
  const endpoint = options.api === "openai" ? { provider: "openai", baseUrl: `${server.url}/v1`, model: "gpt-4.1" } : { provider: "anthropic", baseUrl: server.url, model: "claude-sonnet-5-5" };
  const config = {
    retry: { delaysMs: [10, 20, 40] },
    profile: "small",
    profiles: { small: { ...endpoint, contextWindow: options.contextWindow, maxOutputTokens: 2_000 } },
    context: { filesKept: 2, ...options.context },
    ...(options.autoApprove ? { autoApprove: options.autoApprove } : {}),
  };
  await writeFile(join(cli.sandbox.configDir, "cairn", "config.json"), JSON.stringify(config));
}

/** Forty source files of about 1,200 characters of varied words each. */
async function writeSources(): Promise<void> {
  await mkdir(join(cli.sandbox.workspace, "src"), { recursive: true });
  for (let file = 0; file < 40; file += 1) {
    const lines = Array.from({ length: 30 }, (_, line) => `export const value${file}_${line} = compute("${file}-${line}", ${line * 7 + file});`);
    await writeFile(join(cli.sandbox.workspace, "src", `file${file}.ts`), `${lines.join("\n")}\n`);
  }
}

const read = (path: string, progress?: string): ScenarioTurn => ({
  text: `Reading ${path}.\n<read_file>\n<path>${path}</path>\n${progress ? `<task_progress>\n${progress}\n</task_progress>\n` : ""}</read_file>`,
  chunkSize: 400,
});
const write = (path: string, content: string): ScenarioTurn => ({
  text: `Writing ${path}.\n<write_to_file>\n<path>${path}</path>\n<content>\n${content}\n</content>\n</write_to_file>`,
  chunkSize: 400,
});
const complete = (result: string): ScenarioTurn => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });
const summary = (marker: string, extra = ""): ScenarioTurn => ({
  text: `## Task\nRead the sources and write the outputs.\n## Files\n${extra}\n## Open checklist items\n- [ ] Read the sources\n- [ ] Write the outputs\n- [ ] Finish the report\n## Next step\nGo on (${marker}).`,
  chunkSize: 200,
});

const bodyText = (request: LoggedRequest | undefined): string => JSON.stringify(request?.body ?? "");
const mainRequests = (server: ScriptedServer): LoggedRequest[] => server.requests.filter((request) => request.route === undefined);
/** The main request sent right after each summary request. */
function requestsAfterSummaries(server: ScriptedServer): Array<{ summary: LoggedRequest; next: LoggedRequest | undefined }> {
  return server.requests.flatMap((request, position) => (request.route === undefined ? [] : [{ summary: request, next: server.requests.slice(position + 1).find((later) => later.route === undefined) }]));
}
const says = (events: Array<Record<string, unknown>>, kind: string): Array<Record<string, unknown>> => events.filter((event) => event["say"] === kind && event["partial"] === false);

describe("long tasks compact their context and go on (real CLI and SDK over HTTP)", () => {
  it("a 200-turn task with a small window (set in a profile) crosses the window at least twice, compacts each time and completes", async () => {
    await writeSources();
    const allOutputs = Array.from({ length: 200 }, (_, turn) => `src/out${turn}.ts`).join(", ");
    const turns: ScenarioTurn[] = [];
    for (let turn = 0; turn < 199; turn += 1) {
      const progress = turn === 0 ? "- [ ] Read the sources\n- [ ] Write the outputs\n- [ ] Finish the report" : turn === 120 ? "- [x] Read the sources\n- [ ] Write the outputs\n- [ ] Finish the report" : undefined;
      turns.push(turn % 6 === 5 ? write(`src/out${turn}.ts`, `export const out${turn} = ${turn};`) : read(`src/file${turn % 40}.ts`, progress));
    }
    turns.push(complete("Read every source and wrote the outputs."));
    const summaries = Array.from({ length: 40 }, (_, index) => summary(`summary ${index}`, allOutputs));
    const server = await serve({ turns, routes: [{ bodyIncludes: summaryRoute, turns: summaries }] });
    await configure(server, { contextWindow: 24_000 });

    const result = await cli.run(["run", "--json", "-y", "--api-key", "test-key", "Read the sources and write the outputs"]);
    expect(result.status, result.stderr).toBe(0);
    expect(says(result.events, "completion_result")).toHaveLength(1);
    expect(mainRequests(server)).toHaveLength(200);

    const condensed = says(result.events, "condense").filter((event) => (event["meta"] as Record<string, unknown>)["step"] === "summary");
    expect(condensed.length).toBeGreaterThanOrEqual(2);
    const after = requestsAfterSummaries(server);
    expect(after).toHaveLength(condensed.length);
    for (const [index, { summary: summaryRequest, next }] of after.entries()) {
      // The summary request offers no tools; the request after it continues from the compacted conversation.
      expect((summaryRequest.body as Record<string, unknown>)["tools"]).toBeUndefined();
      const text = bodyText(next);
      expect(text).toContain("Read the sources and write the outputs");
      expect(text).toContain(`Go on (summary ${index})`);
      expect(text).toContain("<current_checklist>");
      expect(text).toMatch(/<file_content path=\\"src\/(out|file)\d+\.ts\\">/);
      const meta = condensed[index]?.["meta"] as Record<string, number>;
      expect(meta["tokensAfter"]).toBeLessThan(meta["tokensBefore"] ?? 0);
    }
    // Every request stays within the window (4 characters a token is generous for this text).
    for (const request of mainRequests(server)) expect(bodyText(request).length).toBeLessThan(24_000 * 4);
    // Tokens used of the window are in the JSON stream.
    const finished = says(result.events, "api_req_started").map((event) => event["meta"] as Record<string, number>);
    expect(finished.at(-1)?.["contextWindow"]).toBe(24_000);
    expect(finished.at(-1)?.["contextTokens"]).toBeGreaterThan(0);
    // The checklist is its own message in --json.
    const checklists = says(result.events, "checklist");
    expect(checklists.map((event) => event["text"])).toEqual(["- [ ] Read the sources\n- [ ] Write the outputs\n- [ ] Finish the report", "- [x] Read the sources\n- [ ] Write the outputs\n- [ ] Finish the report"]);
  }, 240_000);

  it("a summary that omits an edited file is caught: the UI says so and the turn that edited it is kept verbatim", async () => {
    await writeSources();
    const turns = [write("src/keep.ts", "export const keep = true;"), ...Array.from({ length: 30 }, (_, index) => read(`src/file${index + 1}.ts`)), complete("done")];
    const server = await serve({ turns, routes: [{ bodyIncludes: summaryRoute, turns: Array.from({ length: 5 }, (_, index) => summary(`forgetful ${index}`)) }] });
    await configure(server, { contextWindow: 8_000 });
    const result = await cli.run(["run", "--json", "-y", "--api-key", "test-key", "Read the sources and write the outputs"]);
    expect(result.status, result.stderr).toBe(0);
    const condensed = says(result.events, "condense").filter((event) => (event["meta"] as Record<string, unknown>)["step"] === "summary");
    expect(condensed.length).toBeGreaterThanOrEqual(1);
    expect((condensed[0]?.["meta"] as Record<string, unknown>)["missing"]).toEqual({ files: ["src/keep.ts"], items: [] });
    expect(says(result.events, "warning").map((event) => event["text"])).toContainEqual(expect.stringContaining("The summary did not mention src/keep.ts"));
    const next = requestsAfterSummaries(server)[0]?.next;
    expect(bodyText(next)).toContain("Writing src/keep.ts.");
    expect(bodyText(next)).toContain("Go on (forgetful 0)");
  }, 120_000);

  it("a context-window error on the first chunk compacts and retries once, then the task goes on", async () => {
    await writeSources();
    const tooLong = { status: 400, body: { type: "error", error: { type: "invalid_request_error", message: "prompt is too long: 210000 tokens > 200000 maximum" } } };
    const turns = [write("src/a.ts", "export const a = 1;"), ...Array.from({ length: 6 }, (_, index) => read(`src/file${index}.ts`)), { error: tooLong }, complete("done")];
    const server = await serve({ turns, routes: [{ bodyIncludes: summaryRoute, turns: [summary("after overflow", "src/a.ts")] }] });
    await configure(server, { contextWindow: 200_000 });
    const result = await cli.run(["run", "--json", "-y", "--api-key", "test-key", "Read the sources and write the outputs"]);
    expect(result.status, result.stderr).toBe(0);
    const condensed = says(result.events, "condense");
    expect(condensed).toHaveLength(1);
    expect(condensed[0]?.["meta"]).toMatchObject({ reason: "context_window", step: "summary" });
    // One summary request between the refused request and its single retry.
    const refused = server.requests.findIndex((request) => request.route === undefined && request.index === 7);
    expect(server.requests[refused + 1]?.route).toBe(0);
    expect(server.requests[refused + 2]).toMatchObject({ index: 8 });
    expect(bodyText(server.requests[refused + 2])).toContain("Go on (after overflow)");
    expect(bodyText(server.requests[refused + 2]).length).toBeLessThan(bodyText(server.requests[refused]).length);
    expect(server.requests).toHaveLength(turns.length + 1);
  }, 120_000);

  it("OpenAI API: context_length_exceeded on the first chunk compacts through the same provider and retries once", async () => {
    await writeSources();
    const tooLong = { status: 400, body: { error: { message: "This model's maximum context length is 1047576 tokens.", type: "invalid_request_error", code: "context_length_exceeded" } } };
    const turns = [write("src/a.ts", "export const a = 1;"), ...Array.from({ length: 6 }, (_, index) => read(`src/file${index}.ts`)), { error: tooLong }, complete("done")];
    const server = await serve({ turns, routes: [{ bodyIncludes: summaryRoute, turns: [summary("openai", "src/a.ts")] }] });
    await configure(server, { contextWindow: 200_000, api: "openai" });
    const result = await cli.run(["run", "--json", "-y", "--api-key", "test-key", "Read the sources and write the outputs"]);
    expect(result.status, result.stderr).toBe(0);
    expect(says(result.events, "condense")[0]?.["meta"]).toMatchObject({ reason: "context_window", step: "summary" });
    const summaryRequest = server.requests.find((request) => request.route === 0);
    expect(summaryRequest?.path).toBe("/v1/chat/completions");
    expect((summaryRequest?.body as Record<string, unknown>)["tools"]).toBeUndefined();
    expect(bodyText(mainRequests(server).at(-1))).toContain("Go on (openai)");
  }, 120_000);

  it("a context-window error in the middle of a stream also compacts, and the task goes on", async () => {
    await writeSources();
    const turns: ScenarioTurn[] = [
      ...Array.from({ length: 6 }, (_, index) => read(`src/file${index}.ts`)),
      { text: "Thinking about it at some length.", chunkSize: 4, streamError: { type: "invalid_request_error", message: "prompt is too long: 210000 tokens > 200000 maximum", afterChunks: 4 } },
      complete("done"),
    ];
    const server = await serve({ turns, routes: [{ bodyIncludes: summaryRoute, turns: [summary("mid-stream")] }] });
    await configure(server, { contextWindow: 200_000 });
    const result = await cli.run(["run", "--json", "-y", "--api-key", "test-key", "Read the sources and write the outputs"]);
    expect(result.status, result.stderr).toBe(0);
    expect(says(result.events, "condense")[0]?.["meta"]).toMatchObject({ reason: "context_window", step: "summary" });
    expect(bodyText(mainRequests(server).at(-1))).toContain("Go on (mid-stream)");
  }, 120_000);

  it("a summary request that itself overflows is truncated, keeping the first exchange, and sent again", async () => {
    await writeSources();
    const tooLong = { status: 400, body: { type: "error", error: { type: "invalid_request_error", message: "prompt is too long: 250000 tokens > 200000 maximum" } } };
    const turns = [...Array.from({ length: 10 }, (_, index) => read(`src/file${index}.ts`)), { error: tooLong }, complete("done")];
    const server = await serve({ turns, routes: [{ bodyIncludes: summaryRoute, turns: [{ error: tooLong }, summary("second try")] }] });
    await configure(server, { contextWindow: 200_000 });
    const result = await cli.run(["run", "--json", "-y", "--api-key", "test-key", "Read the sources and write the outputs"]);
    expect(result.status, result.stderr).toBe(0);
    const summaryRequests = server.requests.filter((request) => request.route === 0);
    expect(summaryRequests).toHaveLength(2);
    const [first, second] = summaryRequests.map(bodyText);
    expect(second?.length).toBeLessThan(first?.length ?? 0);
    expect(second).toContain("Read the sources and write the outputs");
    expect(second).toContain("were left out");
    const condensed = says(result.events, "condense");
    expect(condensed[0]?.["meta"]).toMatchObject({ reason: "context_window", step: "summary" });
    expect((condensed[0]?.["meta"] as Record<string, number>)["truncatedForSummary"]).toBeGreaterThan(0);
    // What the summary requests cost is shown, and counted in the task's tokens.
    expect((condensed[0]?.["meta"] as Record<string, unknown>)["summaryRequests"]).toMatchObject({ requests: 2, tokensIn: 10, tokensOut: 10 });
    expect(bodyText(mainRequests(server).at(-1))).toContain("Go on (second try)");
  }, 120_000);

  it("cairn compact condenses a stored task and cairn compact --undo restores it exactly", async () => {
    await writeSources();
    const turns = [write("src/a.ts", "export const a = 1;"), ...Array.from({ length: 10 }, (_, index) => read(`src/file${index}.ts`)), complete("done")];
    const server = await serve({ turns });
    await configure(server, { contextWindow: 200_000 });
    const run = await cli.run(["run", "--json", "-y", "--api-key", "test-key", "Read the sources and write the outputs"]);
    expect(run.status, run.stderr).toBe(0);
    const taskId = String(run.events[0]?.["taskId"]);
    const store = new TaskStore({ dataDir: cli.sandbox.dataDir });
    const original = (await store.load(taskId)).apiHistory;

    const summaryServer = await serve({ turns: [], routes: [{ bodyIncludes: summaryRoute, turns: [summary("by hand", "src/a.ts")] }] });
    await configure(summaryServer, { contextWindow: 200_000 });
    const compacted = await cli.run(["compact", taskId, "--json", "--api-key", "test-key"]);
    expect(compacted.status, compacted.stderr).toBe(0);
    expect(says(compacted.events, "condense")[0]).toMatchObject({ v: 2, taskId, meta: { reason: "manual", step: "summary" } });
    // #18: compact --json prints the same format 2 lines as cairn run --json.
    for (const event of compacted.events) expect(jsonEventProblems(event), JSON.stringify(event)).toEqual([]);
    const afterCompact = (await store.load(taskId)).apiHistory;
    expect(afterCompact.length).toBeLessThan(original.length);
    expect(JSON.stringify(afterCompact[0])).toContain("Go on (by hand)");
    // The log is append-only: the old conversation is still in it.
    const log = await readFile(join(cli.sandbox.dataDir, "tasks", taskId, "log.jsonl"), "utf8");
    expect(log).toContain('"kind":"api_compact"');
    expect(log).toContain("value9_29");

    const undone = await cli.run(["compact", taskId, "--undo", "--json", "--api-key", "test-key"]);
    expect(undone.status, undone.stderr).toBe(0);
    expect((await store.load(taskId)).apiHistory).toEqual(original);
    const again = await cli.run(["compact", taskId, "--undo", "--api-key", "test-key"]);
    expect(again.status).toBe(1);
    expect(again.stdout).toContain("There is no compaction to undo.");
  }, 120_000);

  it("resume after a compaction continues from the compacted conversation; the checklist and the user's latest message survive compaction and resume", async () => {
    await writeSources();
    const checklist = "- [x] Read file0\n- [ ] Read the rest\n- [ ] Write the report";
    const first = await serve({
      turns: [
        read("src/file0.ts", checklist),
        ...Array.from({ length: 24 }, (_, index) => read(`src/file${index + 1}.ts`)),
        { text: "<ask_followup_question>\n<question>Which format?</question>\n</ask_followup_question>" },
      ],
      routes: [{ bodyIncludes: summaryRoute, turns: Array.from({ length: 5 }, (_, index) => summary(`first run ${index}`)) }],
    });
    await configure(first, { contextWindow: 12_000, autoApprove: { readInside: true, editInside: true } });
    const run = await cli.run(["run", "--json", "--api-key", "test-key", "Read the sources and write the outputs"]);
    expect(run.status).toBe(1);
    expect(says(run.events, "condense").length).toBeGreaterThanOrEqual(1);
    expect(says(run.events, "checklist").map((event) => event["text"])).toEqual([checklist]);
    const taskId = String(run.events[0]?.["taskId"]);
    // The checklist message is in the log, for the TUI's pinned panel after a resume.
    const loaded = await new TaskStore({ dataDir: cli.sandbox.dataDir }).load(taskId);
    expect(loaded.uiMessages.filter((message) => message.type === "say" && message.say === "checklist").map((message) => message.text)).toEqual([checklist]);

    const second = await serve({
      turns: [...Array.from({ length: 24 }, (_, index) => read(`src/file${index + 10}.ts`)), complete("done")],
      routes: [{ bodyIncludes: summaryRoute, turns: Array.from({ length: 5 }, (_, index) => summary(`second run ${index}`)) }],
    });
    await configure(second, { contextWindow: 12_000, context: { checklistReminderEvery: 4 } });
    const resumed = await cli.run(["resume", taskId, "--json", "-y", "--api-key", "test-key", "Put the report in REPORT.md, please"]);
    expect(resumed.status, resumed.stderr).toBe(0);
    const firstResumed = bodyText(mainRequests(second)[0]);
    expect(firstResumed).toContain("<conversation_summary>");
    expect(firstResumed).toMatch(/Go on \(first run \d\)/);
    expect(firstResumed).toContain("<current_checklist>");
    expect(firstResumed).toContain("Put the report in REPORT.md, please");
    // file0 was read at the start and summarised away: its content is gone from the request.
    expect(firstResumed).not.toContain("value0_29");
    // A compaction in the resumed run keeps the user's latest message verbatim and the checklist.
    const after = requestsAfterSummaries(second);
    expect(after.length).toBeGreaterThanOrEqual(1);
    const afterText = bodyText(after[0]?.next);
    expect(afterText).toContain("<user_messages>");
    expect(afterText).toContain("<feedback>\\nPut the report in REPORT.md, please\\n</feedback>");
    expect(afterText).toContain("- [ ] Write the report");
    // Requests without a checklist update bring a reminder of the open items.
    expect(mainRequests(second).some((request) => bodyText(request).includes("# Task checklist reminder"))).toBe(true);
  }, 180_000);

  it("native protocol: update_checklist is shown as its own message and survives a compaction; every tool call keeps its result", async () => {
    await writeSources();
    const checklist = "- [x] Plan\n- [ ] Read every source\n- [ ] Report";
    const turns: ScenarioTurn[] = [
      { toolCalls: [{ name: "update_checklist", arguments: { checklist } }] },
      ...Array.from({ length: 24 }, (_, index): ScenarioTurn => ({ text: `Reading ${index}.`, toolCalls: [{ name: "read_file", arguments: { path: `src/file${index}.ts` } }] })),
      { toolCalls: [{ name: "attempt_completion", arguments: { result: "done" } }] },
    ];
    const server = await serve({ turns, routes: [{ bodyIncludes: summaryRoute, turns: Array.from({ length: 5 }, (_, index) => summary(`native ${index}`)) }] });
    await configure(server, { contextWindow: 8_000 });
    const result = await cli.run(["run", "--json", "-y", "--tool-protocol", "native", "--api-key", "test-key", "Read the sources and write the outputs"]);
    expect(result.status, result.stderr).toBe(0);
    expect(says(result.events, "checklist").map((event) => event["text"])).toEqual([checklist]);
    const after = requestsAfterSummaries(server);
    expect(after.length).toBeGreaterThanOrEqual(1);
    for (const { next } of after) {
      const body = next?.body as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }>; tools?: unknown[] };
      expect(JSON.stringify(body.messages[0])).toContain("<current_checklist>\\n- [x] Plan\\n- [ ] Read every source\\n- [ ] Report\\n</current_checklist>");
      expect(body.tools?.length).toBeGreaterThan(0);
      body.messages.forEach((message, index) => {
        expect(message.role).toBe(index % 2 === 0 ? "user" : "assistant");
        for (const block of message.content.filter((part) => part["type"] === "tool_use")) {
          expect(body.messages[index + 1]?.content.some((part) => part["type"] === "tool_result" && part["tool_use_id"] === block["id"])).toBe(true);
        }
      });
    }
  }, 120_000);
});
