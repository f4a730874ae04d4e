import { describe, expect, it } from "vitest";
import type { UiMessage } from "./messages.js";
import { MessageState } from "./message-state.js";
import { noLog } from "./seams.js";

function recordingState(): { state: MessageState; seen: UiMessage[] } {
  const seen: UiMessage[] = [];
  const state = new MessageState({
    host: { onMessage: (message) => seen.push(message), answerAsk: () => Promise.reject(new Error("no asks here")) },
    log: noLog,
    now: () => 0,
    minIntervalMs: 0,
  });
  return { state, seen };
}

describe("MessageState", () => {
  it("issue #12: a keyed message finalised by an abort is updated in place by its late final say, not shown twice", () => {
    const { state, seen } = recordingState();
    const first = state.say("command_output", "line 1\n", { partial: true, key: "call-1:output" });
    // Esc: the round ends and every open message is finalised...
    state.finalizeOpen();
    // ...then the aborted command reports its final output under the same key.
    const second = state.say("command_output", "line 1\n", { partial: false, key: "call-1:output", meta: { end: { kind: "aborted" } } });
    expect(second).toBe(first);
    expect(new Set(seen.map((message) => message.id)).size).toBe(1);
    expect(state.messages).toHaveLength(1);
    expect(state.messages[0]?.meta).toMatchObject({ end: { kind: "aborted" } });
  });
});
