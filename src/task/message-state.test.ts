import { describe, expect, it } from "vitest";
import type { UiMessage } from "./contracts/messages.js";
import { MessageState } from "./message-state.js";
import { noLog } from "./contracts/seams.js";
import type { TaskLogEntry } from "./contracts/seams.js";

const logged: TaskLogEntry[] = [];

function recordingState(): { state: MessageState; seen: UiMessage[] } {
  const seen: UiMessage[] = [];
  const state = new MessageState({
    host: { onMessage: (message) => seen.push(message), answerAsk: () => Promise.reject(new Error("no asks here")) },
    // Final messages are not kept in memory (#11 item 6): the log is where their last state is.
    log: { ...noLog, append: (entry) => logged.push(entry) },
    now: () => 0,
    minIntervalMs: 0,
  });
  return { state, seen };
}

describe("MessageState", () => {
  it("a keyed message finalised by an abort is updated in place by its late final say, not shown twice", () => {
    const { state, seen } = recordingState();
    const first = state.say("command_output", "line 1\n", { partial: true, key: "call-1:output" });
    // Esc: the round ends and every open message is finalised...
    state.finalizeOpen();
    // ...then the aborted command reports its final output under the same key.
    const second = state.say("command_output", "line 1\n", { partial: false, key: "call-1:output", meta: { tool: "execute_command", end: { kind: "aborted" }, durationMs: 5 } });
    expect(second).toBe(first);
    expect(new Set(seen.map((message) => message.id)).size).toBe(1);
    expect(state.messageCount).toBe(1);
    expect(logged.filter((entry) => entry.kind === "ui").at(-1)).toMatchObject({ message: { id: first, meta: { end: { kind: "aborted" } } } });
  });
});
