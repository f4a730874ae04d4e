import { describe, expect, it } from "vitest";
import type { Message } from "../llm/types.js";
import type { UiMessage } from "../task/contracts/messages.js";
import { describeTimeAgo, interruptedToolResultText, prepareResume } from "./resume.js";
import type { LoadedTask } from "./types.js";

const minute = 60_000;

function loadedTask(parts: Partial<LoadedTask> & { uiMessages?: UiMessage[]; apiHistory?: Message[] }): LoadedTask {
  return {
    meta: { taskId: "t", task: "Make the tests pass", workspace: "/home/me/project", createdAt: 0 },
    uiMessages: [],
    apiHistory: [],
    status: "running",
    tokensIn: 0,
    tokensOut: 0,
    cost: 0,
    warnings: [],
    updatedAt: 0,
    ...parts,
  };
}

const say = (id: string, kind: "text" | "api_req_started" | "completion_result", ts = 0): UiMessage => ({
  id,
  ts,
  type: "say",
  say: kind,
  text: id,
  partial: false,
});
const ask = (id: string, kind: "resume_task" | "resume_completed_task" | "completion_result" | "tool", ts = 0): UiMessage => ({
  id,
  ts,
  type: "ask",
  ask: kind,
  text: id,
  partial: false,
});
const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
const texts = (content: { type: string }[]) => content.filter((block): block is { type: "text"; text: string } => block.type === "text").map((block) => block.text);

describe("prepareResume", () => {
  it("drops trailing resume asks from the UI messages", () => {
    const result = prepareResume(
      loadedTask({ uiMessages: [say("a", "text"), ask("r1", "resume_task"), ask("r2", "resume_completed_task")], apiHistory: [user("go"), { role: "assistant", content: [{ type: "text", text: "ok" }] }] }),
      { now: 0 },
    );
    expect(result.uiMessages.map((message) => message.id)).toEqual(["a"]);
  });

  it("drops a last api_req_started that never got an answer, but keeps earlier ones", () => {
    const result = prepareResume(loadedTask({ uiMessages: [say("r0", "api_req_started"), say("a", "text"), say("r1", "api_req_started")] }), { now: 0 });
    expect(result.uiMessages.map((message) => message.id)).toEqual(["r0", "a"]);
  });

  it("answers every tool call without a result with an explicit interrupted error result, first in the turn", () => {
    const assistant: Message = {
      role: "assistant",
      content: [
        { type: "text", text: "running two things" },
        { type: "tool_use", id: "call-1", name: "execute_command", input: { command: "make" } },
        { type: "tool_use", id: "call-2", name: "read_file", input: { path: "a" } },
      ],
    };
    const result = prepareResume(loadedTask({ apiHistory: [user("task"), assistant] }), { now: 0 });
    expect(result.apiHistory).toEqual([user("task"), assistant]);
    expect(result.nextUserContent.slice(0, 2)).toEqual([
      { type: "tool_result", toolUseId: "call-1", content: interruptedToolResultText, isError: true },
      { type: "tool_result", toolUseId: "call-2", content: interruptedToolResultText, isError: true },
    ]);
    expect(interruptedToolResultText).toMatch(/interrupted.*not known whether it ran/);
  });

  it("pops a user message left last (request cut off before any answer) and sends its content again, without its stale environment details", () => {
    const assistant: Message = {
      role: "assistant",
      content: [
        { type: "tool_use", id: "call-1", name: "write_file", input: {} },
        { type: "tool_use", id: "call-2", name: "execute_command", input: {} },
      ],
    };
    const lastUser: Message = {
      role: "user",
      content: [
        { type: "tool_result", toolUseId: "call-1", content: "written" },
        { type: "text", text: "<environment_details>x</environment_details>" },
      ],
    };
    const result = prepareResume(loadedTask({ apiHistory: [user("task"), assistant, lastUser] }), { now: 0 });
    expect(result.apiHistory).toEqual([user("task"), assistant]);
    expect(result.nextUserContent[0]).toEqual({ type: "tool_result", toolUseId: "call-1", content: "written" });
    expect(result.nextUserContent[1]).toMatchObject({ type: "tool_result", toolUseId: "call-2", isError: true });
    expect(texts(result.nextUserContent).join("\n")).not.toContain("<environment_details>");
  });

  it("resends the task itself when the very first request was cut off", () => {
    const result = prepareResume(loadedTask({ apiHistory: [user("<task>Make the tests pass</task>")] }), { now: 0 });
    expect(result.apiHistory).toEqual([]);
    expect(texts(result.nextUserContent)[0]).toBe("<task>Make the tests pass</task>");
    const empty = prepareResume(loadedTask({ apiHistory: [] }), { now: 0 });
    expect(texts(empty.nextUserContent)[0]).toContain("Make the tests pass");
  });

  it("tells the model the task was interrupted, how long ago, and the working directory", () => {
    const result = prepareResume(loadedTask({ uiMessages: [say("a", "text", 1_000)], apiHistory: [user("t"), { role: "assistant", content: [{ type: "text", text: "hm" }] }] }), { now: 1_000 + 3 * minute + 5_000 });
    const notice = texts(result.nextUserContent).at(-1)!;
    expect(notice).toContain("interrupted 3 minutes ago");
    expect(notice).toContain("'/home/me/project'");
    expect(result.wasCompleted).toBe(false);
  });

  it("names the folder the task works in now when that is not its workspace (a writing subagent's own worktree)", () => {
    const result = prepareResume(loadedTask({ uiMessages: [say("a", "text", 1_000)], apiHistory: [user("t"), { role: "assistant", content: [{ type: "text", text: "hm" }] }] }), {
      now: 2_000,
      workingDirectory: "/home/me/.cairn/worktrees/parent/general-1",
    });
    const notice = texts(result.nextUserContent).at(-1)!;
    expect(notice).toContain("The working directory is '/home/me/.cairn/worktrees/parent/general-1'");
    expect(notice).not.toContain("/home/me/project");
  });

  it("adds the user's message after the notice", () => {
    const result = prepareResume(loadedTask({ apiHistory: [user("t"), { role: "assistant", content: [] }] }), {
      now: 0,
      userMessage: "  also update the README  ",
    });
    const last = texts(result.nextUserContent).at(-1)!;
    expect(last).toContain("<feedback>\nalso update the README\n</feedback>");
    expect(texts(result.nextUserContent).at(-2)).toContain("[TASK RESUMPTION]");
  });

  it("recognises a completed task and words the notice for new feedback", () => {
    const result = prepareResume(
      loadedTask({
        status: "completed",
        uiMessages: [say("done", "completion_result"), ask("c", "completion_result", 0), ask("r", "resume_completed_task")],
        apiHistory: [user("t"), { role: "assistant", content: [{ type: "text", text: "done" }] }],
      }),
      { now: 2 * 3_600_000, userMessage: "now add tests" },
    );
    expect(result.wasCompleted).toBe(true);
    expect(result.uiMessages.map((message) => message.id)).toEqual(["done", "c"]);
    expect(texts(result.nextUserContent).join("\n")).toMatch(/completed 2 hours ago[\s\S]*new feedback[\s\S]*now add tests/);
  });

  it("does not change the loaded task it was given", () => {
    const loaded = loadedTask({ uiMessages: [say("a", "api_req_started")], apiHistory: [user("t")] });
    const copy = structuredClone(loaded);
    prepareResume(loaded, { now: 0 });
    expect(loaded).toEqual(copy);
  });
});

describe("describeTimeAgo", () => {
  it("words durations the way a person would", () => {
    expect(describeTimeAgo(10_000)).toBe("less than a minute ago");
    expect(describeTimeAgo(minute)).toBe("1 minute ago");
    expect(describeTimeAgo(59 * minute)).toBe("59 minutes ago");
    expect(describeTimeAgo(61 * minute)).toBe("1 hour ago");
    expect(describeTimeAgo(50 * 3_600_000)).toBe("2 days ago");
  });
});
