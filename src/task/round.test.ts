import { describe, expect, it } from "vitest";
import { NativeToolCallAssembler } from "../llm/native-tool-calls.js";
import type { Chunk, Message } from "../llm/types.js";
import type { ToolUseBlock } from "../parser/types.js";
import type { TaskLogEntry } from "./contracts/seams.js";
import { StateLock } from "./state-lock.js";
import { TaskState } from "./task-state.js";
import type { ToolRun } from "./tool-runner.js";
import { MemoryLog, makeTask } from "./test-support/make-task.js";

const call = (id: string, name: string, args: string): Chunk => ({ type: "tool_call", index: 0, id, name, argumentsDelta: args });

/** Every tool_use in an assistant message is answered by a tool_result in the message after it. */
function unpairedToolUses(history: readonly Message[]): string[] {
  const unpaired: string[] = [];
  history.forEach((message, position) => {
    if (message.role !== "assistant") return;
    const next = history[position + 1];
    for (const block of message.content) {
      if (block.type !== "tool_use") continue;
      const answered = next?.content.some((part) => part.type === "tool_result" && part.toolUseId === block.id) ?? false;
      if (!answered) unpaired.push(block.id);
    }
  });
  return unpaired;
}

describe("per-round state is created fresh for every round", () => {
  it("a provider that numbers calls call_0 in every round: an unanswered call of a later round does not look answered", async () => {
    const { task, tools } = makeTask([[call("call_0", "read_file", '{"path":"a.ts"}')], [call("call_0", "wait", "{}")]], {
      yes: true,
      protocol: "native",
      extra: { createNativeToolCalls: () => new NativeToolCallAssembler() },
    });
    const running = task.startTask("t");
    while (!tools.calls.some((entry) => entry.name === "wait")) await new Promise((resolve) => setTimeout(resolve, 2));
    await task.abortTask();
    expect((await running).status).toBe("aborted");
    expect(unpairedToolUses(task.apiConversationHistory)).toEqual([]);
  });
});

describe("SPEC T10: each recursion starts a new round", () => {
  it("T10: nothing of a used round carries over into the next one", async () => {
    const lock = new StateLock();
    const state = new TaskState({ protocol: "native", parallelTools: false, stateLock: lock });
    const blocks = { length: 0, at: () => undefined };
    const first = state.startRound(blocks);
    const pristine = JSON.stringify(first, (_key, value: unknown) => (value instanceof Set || value instanceof Map ? [...value] : value));
    await lock.withStateLock(() =>
      first.applyToolRun({ block: { type: "tool_use", id: "call_0", name: "write_to_file", params: {}, partial: false }, status: "rejected", content: "no", mutating: true, completed: false, repetition: "ok" }),
    );
    first.markPreviewed("call_1", 1);
    first.currentStreamingContentIndex = 3;
    first.streamPhase = { kind: "cut", reason: "output_limit" };
    first.presenterLock = "presenting-with-pending-update";
    first.markUserMessageContentReady();
    const second = state.startRound(blocks);
    expect(second).not.toBe(first);
    expect(state.round).toBe(second);
    expect(JSON.stringify(second, (_key, value: unknown) => (value instanceof Set || value instanceof Map ? [...value] : value))).toBe(pristine);
  });
});

const block = (id: string): ToolUseBlock => ({ type: "tool_use", id, name: "write_to_file", params: {}, partial: false });

function roundWith(parallelTools: boolean) {
  const lock = new StateLock();
  const round = new TaskState({ protocol: "native", parallelTools, stateLock: lock }).startRound({ length: 0, at: () => undefined });
  const apply = (run: ToolRun) => lock.withStateLock(() => round.applyToolRun(run));
  const ran = (id: string, status: "success" | "error" | "mistake" | "rejected", mutating = false): ToolRun => ({ block: block(id), status, content: "r", mutating, completed: false, repetition: "ok" });
  return { round, apply, ran };
}

describe("a round's state: each tool call's state, the stream's phase, the presenter's lock", () => {
  it("a call is previewed while it streams, runs once complete, and counts as answered and used only when its result is in", async () => {
    const { round, apply, ran } = roundWith(false);
    round.markPreviewed("a", 5);
    expect(round.toolCallState("a")).toEqual({ kind: "pending", previewedAt: 5 });
    expect(round.previewedAt("a")).toBe(5);
    round.markRunning("a");
    expect(round.previewedAt("a")).toBeUndefined();
    expect([round.didAlreadyUseTool, round.didRunMutatingTool, round.stoppingToolId, [...round.answeredToolIds]]).toEqual([false, false, undefined, []]);
    await apply(ran("a", "error", true));
    expect(round.toolCallState("a")).toEqual({ kind: "answered", status: "error", mutating: true });
    expect([round.didAlreadyUseTool, round.didRunMutatingTool, round.didRejectTool, round.stoppingToolId, [...round.answeredToolIds]]).toEqual([true, true, false, "a", ["a"]]);
  });

  it("P5: in serial mode the first call run stops the answer; later skipped calls are answered but neither used nor stopping", async () => {
    const { round, apply, ran } = roundWith(false);
    await apply(ran("a", "success"));
    await apply({ block: block("b"), status: "skipped", reason: "serial", content: "not run" });
    expect(round.toolCallState("b")).toEqual({ kind: "skipped", reason: "serial" });
    expect([round.stoppingToolId, [...round.answeredToolIds], round.didRunMutatingTool]).toEqual(["a", ["a", "b"], false]);
  });

  it("T14: with parallel tools only a rejected call stops the answer, and a rejected call that may change the workspace still counts as mutating", async () => {
    const { round, apply, ran } = roundWith(true);
    await apply(ran("a", "success"));
    expect(round.stoppingToolId).toBeUndefined();
    await apply(ran("b", "rejected", true));
    await apply({ block: block("c"), status: "skipped", reason: "rejected", content: "not run" });
    expect([round.didRejectTool, round.stoppingToolId, round.didRunMutatingTool, [...round.answeredToolIds]]).toEqual([true, "b", true, ["a", "b", "c"]]);
    expect(round.userMessageContent).toHaveLength(3);
  });

  it("P7: the user content is ready only once the stream ended; a cut stream tells why", () => {
    const { round } = roundWith(false);
    round.markUserMessageContentReady();
    expect([round.didCompleteReadingStream, round.userMessageContentReady, round.streamCut]).toEqual([false, false, undefined]);
    round.streamPhase = { kind: "cut", reason: "stream_failed" };
    round.markUserMessageContentReady();
    expect([round.didCompleteReadingStream, round.userMessageContentReady, round.streamCut]).toEqual([true, true, "stream_failed"]);
  });

  it("P2, P3: the presenter's lock is held, or held with an update pending", () => {
    const { round } = roundWith(false);
    expect([round.presentAssistantMessageLocked, round.presentAssistantMessageHasPendingUpdates]).toEqual([false, false]);
    round.presenterLock = "presenting";
    expect([round.presentAssistantMessageLocked, round.presentAssistantMessageHasPendingUpdates]).toEqual([true, false]);
    round.presenterLock = "presenting-with-pending-update";
    expect([round.presentAssistantMessageLocked, round.presentAssistantMessageHasPendingUpdates]).toEqual([true, true]);
  });
});

describe("SPEC T8: the state lock's reach", () => {
  it("T8: a tool result is applied to the round only inside the state lock; outside it fails loudly", async () => {
    const lock = new StateLock();
    const round = new TaskState({ protocol: "xml", parallelTools: false, stateLock: lock }).startRound({ length: 0, at: () => undefined });
    const run = { block: { type: "tool_use" as const, id: "t1", name: "read_file", params: {}, partial: false }, status: "success" as const, content: "ok", mutating: false, completed: false, repetition: "ok" as const };
    expect(() => round.applyToolRun(run)).toThrow(/outside the state lock/);
    await lock.withStateLock(() => round.applyToolRun(run));
    expect(round.answeredToolIds.has("t1")).toBe(true);
  });

  it("T8: every history change and every tool result of a task happens while the lock is held", async () => {
    const heldAtAppend: Array<[string, boolean]> = [];
    const { task, tools } = makeTask([[{ type: "text", text: "<read_file>\n<path>a</path>\n</read_file>" }], [{ type: "text", text: "<attempt_completion>\n<result>ok</result>\n</attempt_completion>" }]], {
      yes: true,
      extra: {
        log: new (class extends MemoryLog {
          override append(entry: TaskLogEntry): void {
            // The Task's lock is private; the test reads it to check how far it reaches.
            heldAtAppend.push([entry.kind, (task as unknown as { stateLock: { held: boolean } }).stateLock.held]);
            super.append(entry);
          }
        })(),
      },
    });
    let heldDuringResult = false;
    tools.setHandler("read_file", async () => ({ status: "success", content: "contents" }));
    const original = task.taskState.startRound.bind(task.taskState);
    task.taskState.startRound = (blocks) => {
      const round = original(blocks);
      const apply = round.applyToolRun.bind(round);
      round.applyToolRun = (run) => {
        heldDuringResult = (task as unknown as { stateLock: { held: boolean } }).stateLock.held;
        return apply(run);
      };
      return round;
    };
    expect((await task.startTask("t")).status).toBe("completed");
    expect(heldDuringResult).toBe(true);
    const apiAppends = heldAtAppend.filter(([kind]) => kind.startsWith("api"));
    expect(apiAppends.length).toBeGreaterThanOrEqual(4);
    expect(apiAppends.every(([, held]) => held)).toBe(true);
  });
});
