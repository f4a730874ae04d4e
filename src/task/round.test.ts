import { describe, expect, it } from "vitest";
import { NativeToolCallAssembler } from "../llm/native-tool-calls.js";
import type { Chunk, Message } from "../llm/types.js";
import type { TaskLogEntry } from "./contracts/seams.js";
import { StateLock } from "./state-lock.js";
import { TaskState } from "./task-state.js";
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
    Object.assign(first, {
      currentStreamingContentIndex: 3,
      didCompleteReadingStream: true,
      userMessageContentReady: true,
      presentAssistantMessageLocked: true,
      presentAssistantMessageHasPendingUpdates: true,
      streamCut: "output_limit",
    });
    first.partialShownAt.set("call_0", 1);
    const second = state.startRound(blocks);
    expect(second).not.toBe(first);
    expect(state.round).toBe(second);
    expect(JSON.stringify(second, (_key, value: unknown) => (value instanceof Set || value instanceof Map ? [...value] : value))).toBe(pristine);
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
