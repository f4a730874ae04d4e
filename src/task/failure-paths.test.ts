import { runInNewContext } from "node:vm";
import { setFlagsFromString } from "node:v8";
import { describe, expect, it } from "vitest";
import type { Message } from "../llm/types.js";
import { readLog } from "../store/log-reader.js";
import { ConversationHistory } from "./conversation-history.js";
import { MessageState } from "./message-state.js";
import type { UiMessage } from "./contracts/messages.js";
import { noLog } from "./contracts/seams.js";
import { StateLock } from "./state-lock.js";
import { MemoryLog } from "./test-support/make-task.js";

function exchange(count: number): Message[] {
  const messages: Message[] = [];
  for (let index = 0; index < count; index += 1) {
    messages.push({ role: "assistant", content: [{ type: "tool_use", id: `call_${index}`, name: "read_file", input: { path: `f${index}` } }] });
    messages.push({ role: "user", content: [{ type: "tool_result", toolUseId: `call_${index}`, content: `contents ${index}` }] });
  }
  return messages;
}

describe("failure paths keep the log replayable and memory flat", () => {
  it("P-perf-4: truncating after a context-window error appends one marker entry; the log replays to the kept history", async () => {
    const log = new MemoryLog();
    const history = new ConversationHistory({ log, stateLock: new StateLock(), initial: [] });
    await history.add({ role: "user", content: [{ type: "text", text: "<task>t</task>" }] });
    for (const message of exchange(12)) await history.add(message);
    const before = log.entries.length;
    const removed = await history.shrink();
    expect(removed).toBeGreaterThan(0);
    const appended = log.entries.slice(before);
    expect(appended).toHaveLength(1);
    expect(appended[0]?.kind).not.toBe("api");
    const text = log.entries.map((entry) => JSON.stringify(entry)).join("\n") + "\n";
    expect(readLog(text).apiHistory).toEqual(history.messages);
  });

  it("final UI messages are not kept in memory by the task (the log holds them): memory stays flat", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    let sent: WeakRef<UiMessage> | undefined;
    const state = new MessageState({
      host: {
        onMessage: (message) => {
          if (message.text.startsWith("big")) sent = new WeakRef(message);
        },
        answerAsk: async () => ({ response: "yes" }),
      },
      log: noLog,
      now: Date.now,
      minIntervalMs: 0,
    });
    state.say("text", "big " + "x".repeat(1_000_000), { partial: true, key: "k" });
    state.say("text", "big " + "y".repeat(1_000_000), { partial: false, key: "k" });
    for (let index = 0; index < 5; index += 1) state.say("info", `later ${index}`);
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    expect(sent?.deref()).toBeUndefined();
    expect(state.messageCount).toBe(6);
  });
});
