import { describe, expect, it } from "vitest";
import type { SayMeta } from "../task/contracts/message-meta.js";
import type { SayType, UiMessage } from "../task/contracts/messages.js";
import { diffContent } from "./tool-call-fields.js";
import type { TaskResult } from "../task/contracts/task-options.js";
import { stopReasonFor } from "./stop-reasons.js";
import { UpdateProjection } from "./update-projection.js";

/** A `say` as the Task sends it; its meta is typed as its writers declare it (message-meta.ts). */
function say<K extends SayType>(id: string, sayType: K, text: string, extra: { partial?: boolean; meta?: SayMeta<K> } = {}): UiMessage {
  return { type: "say", say: sayType, id, ts: 0, text, partial: extra.partial ?? false, ...(extra.meta === undefined ? {} : { meta: extra.meta }) };
}

describe("cairn's messages become ACP session updates through one mapping", () => {
  it("streams only what is new of a message's text, as agent message and thought chunks", () => {
    const projection = new UpdateProjection({ cwd: "/w", notices: false });
    expect(projection.project(say("a", "text", "Hel", { partial: true }))).toEqual([{ sessionUpdate: "agent_message_chunk", messageId: "a", content: { type: "text", text: "Hel" } }]);
    expect(projection.project(say("a", "text", "Hello", { partial: true }))[0]).toMatchObject({ content: { text: "lo" } });
    expect(projection.project(say("a", "text", "Hello"))).toEqual([]);
    expect(projection.project(say("r", "reasoning", "hmm"))[0]).toMatchObject({ sessionUpdate: "agent_thought_chunk", content: { text: "hmm" } });
  });

  it("a tool message becomes one tool call: pending, its diff and location, then completed by its outcome", () => {
    const projection = new UpdateProjection({ cwd: "/w", notices: false });
    const patch = "--- a.txt\n+++ a.txt\n@@ -1,2 +1,2 @@\n-old\n+new\n same\n";
    const [created] = projection.project(say("t", "tool", "Edit a.txt", { partial: true, meta: { tool: "replace_in_file", path: "a.txt" } }));
    expect(created).toMatchObject({ sessionUpdate: "tool_call", toolCallId: "t", kind: "edit", status: "pending", title: "Edit a.txt", locations: [{ path: "/w/a.txt" }] });
    const [asked] = projection.project(say("t", "tool", `Edit a.txt\n${patch}`, { meta: { tool: "replace_in_file", path: "a.txt", diff: patch, approval: "ask" } }));
    expect(asked).toMatchObject({ sessionUpdate: "tool_call_update", content: [{ type: "diff", path: "/w/a.txt", oldText: "old\nsame", newText: "new\nsame" }] });
    expect(projection.currentToolCallId).toBe("t");
    expect(projection.permissionAnswered("t", true)).toEqual([{ sessionUpdate: "tool_call_update", toolCallId: "t", status: "in_progress" }]);
    expect(projection.project(say("x", "tool_result", "Applied.", { meta: { tool: "replace_in_file", status: "success" } }))[0]).toMatchObject({
      sessionUpdate: "tool_call_update",
      toolCallId: "t",
      status: "completed",
    });
    // An outcome of a tool with no call of its own ends nothing.
    expect(projection.project(say("y", "tool_result", "answer", { meta: { tool: "ask_followup_question", status: "success" } }))).toEqual([]);
  });

  it("an edit's new problems reach the editor: their counts in rawOutput and the result shown; an edit with none shows only its diff", () => {
    const projection = new UpdateProjection({ cwd: "/w", notices: false });
    const result = "Applied 1 block(s) to src/total.ts\n\nNew problems detected after this edit (1 error):\nsrc/report.ts (imports src/total.ts):\n- line 3: error TS2322";
    projection.project(say("t", "tool", "Edit src/total.ts", { meta: { tool: "replace_in_file", path: "src/total.ts" } }));
    const [broken] = projection.project(say("r", "tool_result", result, { meta: { tool: "replace_in_file", status: "success", diagnostics: { errors: 1, warnings: 0 } } }));
    expect(broken).toMatchObject({ status: "completed", rawOutput: { diagnostics: { errors: 1, warnings: 0 } }, content: [{ type: "content", content: { type: "text" } }] });
    expect(JSON.stringify(broken)).toContain("error TS2322");
    projection.project(say("t2", "tool", "Edit src/report.ts", { meta: { tool: "replace_in_file", path: "src/report.ts" } }));
    const [fixed] = projection.project(say("r2", "tool_result", "Applied 1 block(s) to src/report.ts", { meta: { tool: "replace_in_file", status: "success", diagnostics: { errors: 0, warnings: 0 } } }));
    expect(fixed).toMatchObject({ rawOutput: { diagnostics: { errors: 0, warnings: 0 } } });
    expect(fixed).not.toHaveProperty("content");
  });

  it("a failed or rejected tool fails its call and shows why", () => {
    const projection = new UpdateProjection({ cwd: "/w", notices: false });
    projection.project(say("c", "command", "rm -rf build", { meta: { tool: "execute_command", command: "rm -rf build", approval: "ask" } }));
    const [failed] = projection.project(say("z", "tool_result", "The user denied this operation; it did not run.", { meta: { tool: "execute_command", status: "rejected" } }));
    expect(failed).toMatchObject({ status: "failed", content: [{ type: "content", content: { type: "text" } }] });
    expect(JSON.stringify(failed)).toContain("The user denied this operation");
  });

  it("a command's output goes to its call, unless it runs in the client's terminal", () => {
    const projection = new UpdateProjection({ cwd: "/w", notices: false });
    projection.project(say("c", "command", "ls", { meta: { tool: "execute_command", command: "ls", approval: "auto" } }));
    expect(JSON.stringify(projection.project(say("o", "command_output", "a.txt\n", { partial: true })))).toContain("a.txt");
    expect(projection.attachTerminal("term-7")).toEqual([{ sessionUpdate: "tool_call_update", toolCallId: "c", content: [{ type: "terminal", terminalId: "term-7" }] }]);
    expect(projection.project(say("o", "command_output", "a.txt\nb.txt\n"))).toEqual([]);
  });

  it("user messages only on replay; questions and errors as agent messages; notices when the client shows them", () => {
    const plain = new UpdateProjection({ cwd: "/w", notices: false });
    expect(plain.project(say("u", "task", "do it"))).toEqual([]);
    expect(plain.project(say("u", "task", "do it"), true)).toEqual([{ sessionUpdate: "user_message_chunk", messageId: "u", content: { type: "text", text: "do it" } }]);
    const question: UiMessage = { type: "ask", ask: "followup", id: "q", ts: 0, text: "Which?", partial: false, meta: { tool: "ask_followup_question", options: ["a", "b"] } };
    expect(plain.project(question)[0]).toMatchObject({ sessionUpdate: "agent_message_chunk", content: { text: "Which?\n\n- a\n- b" } });
    expect(JSON.stringify(plain.project(say("e", "error", "boom")))).toContain("**Error:** boom");
    expect(plain.project(say("i", "info", "checkpoint made"))).toEqual([]);
    const withNotices = new UpdateProjection({ cwd: "/w", notices: true });
    expect(withNotices.project(say("w", "warning", "careful"))).toEqual([{ sessionUpdate: "notice", severity: "warning", title: "careful", description: "careful" }]);
  });

  it("the task checklist becomes the plan: done steps completed, the next in progress, the rest pending", () => {
    const projection = new UpdateProjection({ cwd: "/w", notices: false });
    const items = [
      { text: "Read the test", done: true },
      { text: "Fix the parser", done: false },
      { text: "Run the tests", done: false },
    ];
    expect(projection.project(say("k", "checklist", "- [x] Read the test\n- [ ] Fix the parser\n- [ ] Run the tests", { meta: { items, done: 1, total: 3 } }))).toEqual([
      {
        sessionUpdate: "plan",
        entries: [
          { content: "Read the test", priority: "medium", status: "completed" },
          { content: "Fix the parser", priority: "medium", status: "in_progress" },
          { content: "Run the tests", priority: "medium", status: "pending" },
        ],
      },
    ]);
  });

  it("stop reasons: a budget reads max_turn_requests; a cancel wins over everything", () => {
    expect(stopReasonFor({ cancelled: false, result: { status: "budget" } as unknown as TaskResult, hint: undefined })).toBe("max_turn_requests");
    expect(stopReasonFor({ cancelled: true, result: { status: "completed" }, hint: "refusal" })).toBe("cancelled");
    expect(stopReasonFor({ cancelled: false, result: { status: "aborted" }, hint: "refusal" })).toBe("refusal");
    expect(stopReasonFor({ cancelled: false, result: { status: "failed", error: "x" }, hint: "max_tokens" })).toBe("max_tokens");
    expect(stopReasonFor({ cancelled: false, result: { status: "failed", error: "x" }, hint: undefined })).toBe("end_turn");
  });

  it("a created file's diff has no old text; every hunk is its own diff", () => {
    const patch = "--- n.txt\n+++ n.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n";
    expect(diffContent("/w", "n.txt", patch, true)).toEqual([{ type: "diff", path: "/w/n.txt", oldText: null, newText: "one\ntwo" }]);
    const two = "--- a\n+++ a\n@@ -1,1 +1,1 @@\n-x\n+y\n@@ -9,1 +9,1 @@\n-p\n+q\n";
    expect(diffContent("/w", "/abs/a", two, false)).toEqual([
      { type: "diff", path: "/abs/a", oldText: "x", newText: "y" },
      { type: "diff", path: "/abs/a", oldText: "p", newText: "q" },
    ]);
  });
});
