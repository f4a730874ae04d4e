import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { AskType, SayType, UiMessage } from "../../task/contracts/messages.js";
import { JsonEventReader, JsonEventFormatError, readJsonEvents } from "./json-events-reader.js";
import { JsonEventWriter } from "./json-events.js";
import { HeadlessHost } from "./headless-host.js";
import { createStreams, say } from "./test-support/streams.js";
import { jsonEventProblems, jsonEventsSchemaPath } from "./test-support/json-events-schema.js";

function written(messages: UiMessage[]): Array<Record<string, unknown>> {
  const writer = new JsonEventWriter({ taskId: "task-1" });
  return messages.flatMap((message) => {
    const line = writer.line(message);
    return line === undefined ? [] : [JSON.parse(line) as Record<string, unknown>];
  });
}

describe("--json format 2: snapshots, deltas, replacements", () => {
  it("a message starts with its whole text, continues with deltas, and ends with its whole text", () => {
    const first = say("text", "The ", { partial: true, meta: { note: 1 } });
    const lines = written([first, { ...first, text: "The answer" }, { ...first, text: "The answer is 42" }, { ...first, text: "The answer is 42.", partial: false }]);
    expect(lines).toEqual([
      { v: 2, type: "say", say: "text", text: "The ", partial: true, ts: first.ts, id: first.id, taskId: "task-1", meta: { note: 1 } },
      { v: 2, type: "say", say: "text", delta: "answer", partial: true, id: first.id },
      { v: 2, type: "say", say: "text", delta: " is 42", partial: true, id: first.id },
      { v: 2, type: "say", say: "text", text: "The answer is 42.", partial: false, ts: first.ts, id: first.id, taskId: "task-1", meta: { note: 1 } },
    ]);
    for (const line of lines) expect(jsonEventProblems(line)).toEqual([]);
  });

  it("text that does not extend what was sent (a tag stripped, a secret redacted) is sent whole, and replaces", () => {
    const first = say("reasoning", "Let me <thi", { partial: true });
    const lines = written([first, { ...first, text: "Let me think" }, { ...first, text: "Let me think it over" }]);
    expect(lines.map((line) => ("text" in line ? `=${String(line["text"])}` : `+${String(line["delta"])}`))).toEqual(["=Let me <thi", "=Let me think", "+ it over"]);
    const reader = new JsonEventReader();
    for (const line of lines) reader.push(line);
    expect(reader.messages.get(first.id)?.text).toBe("Let me think it over");
  });

  it("an update that changes nothing prints nothing; a change of meta alone is an empty delta with the new meta", () => {
    const first = say("tool", "Write a.ts", { partial: true, meta: { tool: "write_to_file", path: "a.ts" } });
    const lines = written([first, { ...first }, { ...first, meta: { tool: "write_to_file", path: "a.ts", characters: 3 } }]);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toEqual({ v: 2, type: "say", say: "tool", delta: "", partial: true, id: first.id, meta: { tool: "write_to_file", path: "a.ts", characters: 3 } });
    for (const line of lines) expect(jsonEventProblems(line)).toEqual([]);
  });

  it("a subagent's deltas keep their subagentId; asks are written the same way", () => {
    const child = say("text", "a", { partial: true, subagentId: "explore-1" });
    const lines = written([child, { ...child, text: "ab" }]);
    expect(lines[1]).toEqual({ v: 2, type: "say", say: "text", delta: "b", partial: true, id: child.id, subagentId: "explore-1" });
    const question: UiMessage = { type: "ask", ask: "followup", id: "q1", ts: 5, text: "Which?", partial: false };
    expect(written([question])[0]).toMatchObject({ v: 2, type: "ask", ask: "followup", text: "Which?" });
    expect(jsonEventProblems(written([question])[0])).toEqual([]);
  });

  it("a reader that joins late (queue watch) gets a snapshot first: a message first seen mid-stream is written whole", () => {
    const { stdout, stderr } = createStreams();
    const host = new HeadlessHost({ json: true, stdout, stderr, stdin: undefined, taskId: "task-1", onAsk: "deny", yes: false, jsonDeltaHold: { chars: 0, ms: 0 } });
    const answer = say("text", "", { partial: true });
    // The host starts with the message already long, as a watcher attaching to a running task does.
    host.onMessage({ ...answer, text: "Already written. " });
    host.onMessage({ ...answer, text: "Already written. And more." });
    host.onMessage({ ...answer, text: "Already written. And more.", partial: false });
    const lines = stdout.lines().map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ text: "Already written. ", partial: true });
    expect(lines[1]).toMatchObject({ delta: "And more.", partial: true });
    expect(readJsonEvents(stdout.text).messages).toEqual([{ type: "say", say: "text", id: answer.id, ts: answer.ts, taskId: "task-1", text: "Already written. And more.", partial: false }]);
  });

  it("output grows linearly: 1 MiB in 64-character updates is written in under 2.2 MiB once updates come at a task's pace", () => {
    const answer = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do\n".repeat(16_384);
    expect(answer.length).toBe(1024 * 1024);
    const first = say("text", "", { partial: true });
    const bytesFor = (step: number): number => {
      const writer = new JsonEventWriter({ taskId: "01JD0000000000000000000000" });
      let bytes = 0;
      for (let end = step; end <= answer.length; end += step) bytes += Buffer.byteLength(writer.line({ ...first, text: answer.slice(0, end) }) ?? "") + 1;
      return bytes + Buffer.byteLength(writer.line({ ...first, text: answer, partial: false }) ?? "") + 1;
    };
    // Every 64-character chunk its own line (far more lines than a task sends): still linear, about 3x.
    expect(bytesFor(64)).toBeLessThan(3.5 * 1024 * 1024);
    // One line per 1 KiB (a task sends at most 25 updates a second): the text about twice, under the goal.
    expect(bytesFor(1024)).toBeLessThan(2.2 * 1024 * 1024);
  });

  it("a long message rewritten near its end (a redaction, a stripped tag) is sent whole again", () => {
    const long = "x".repeat(200_000);
    const first = say("text", `${long} key sk-ab`, { partial: true });
    const lines = written([first, { ...first, text: `${long} key [REDACTED] and more` }, { ...first, text: `${long} key [REDACTED] and more!` }]);
    expect(lines.map((line) => ("text" in line ? "text" : `+${String(line["delta"])}`))).toEqual(["text", "text", "+!"]);
  });

  it("the reader folds format 1 lines (whole text each time) the same way, and refuses a delta without a snapshot", () => {
    const reader = new JsonEventReader();
    reader.push('{"type":"say","say":"text","text":"Hel","partial":true,"ts":1,"id":"m1","taskId":"t"}');
    reader.push('{"type":"say","say":"text","text":"Hello","partial":false,"ts":1,"id":"m1","taskId":"t"}');
    reader.push('{"v":2,"type":"result","taskId":"t","status":"completed"}');
    expect(reader.messages.get("m1")).toMatchObject({ text: "Hello", partial: false });
    expect(reader.others).toEqual([{ v: 2, type: "result", taskId: "t", status: "completed" }]);
    expect(() => reader.push({ v: 2, type: "say", say: "text", delta: "x", partial: true, id: "m2" })).toThrow(JsonEventFormatError);
  });
});

/** Every kind, checked by the compiler: a new kind fails typecheck here until it is added (and to the schema). */
const sayKinds: Record<SayType, true> = {
  task: true,
  text: true,
  reasoning: true,
  tool: true,
  command: true,
  command_output: true,
  completion_result: true,
  error: true,
  error_retry: true,
  api_req_started: true,
  api_req_retried: true,
  checkpoint_created: true,
  user_feedback: true,
  mcp_server_response: true,
  mcp_notification: true,
  hook_status: true,
  empty_assistant_message: true,
  info: true,
  warning: true,
  diff_error: true,
  budget: true,
  condense: true,
  checklist: true,
  tool_result: true,
};
const askKinds: Record<AskType, true> = {
  tool: true,
  command: true,
  followup: true,
  completion_result: true,
  api_req_failed: true,
  mistake_limit_reached: true,
  resume_task: true,
  resume_completed_task: true,
  plan_mode_respond: true,
  use_mcp_server: true,
  empty_response: true,
  elicitation: true,
};

describe("docs/json-events.schema.json names every kind and refuses broken lines", () => {
  it("names every say and ask kind cairn has", () => {
    const schema = JSON.parse(readFileSync(jsonEventsSchemaPath, "utf8")) as { $defs: Record<string, { enum?: string[] }> };
    expect([...(schema.$defs["sayKind"]?.enum ?? [])].sort()).toEqual(Object.keys(sayKinds).sort());
    expect([...(schema.$defs["askKind"]?.enum ?? [])].sort()).toEqual(Object.keys(askKinds).sort());
  });

  it("refuses lines that break the format: no v, both text and delta, a delta line that is final", () => {
    const line = { v: 2, type: "say", say: "text", text: "a", partial: false, ts: 1, id: "m1", taskId: "t" };
    expect(jsonEventProblems(line)).toEqual([]);
    const { v: _version, ...withoutVersion } = line;
    expect(jsonEventProblems(withoutVersion)).not.toEqual([]);
    expect(jsonEventProblems({ ...line, delta: "b" })).not.toEqual([]);
    expect(jsonEventProblems({ v: 2, type: "say", say: "text", delta: "b", partial: false, id: "m1" })).not.toEqual([]);
    expect(jsonEventProblems({ ...line, type: "ask" })).not.toEqual([]);
  });
});
