import { afterEach, describe, expect, it } from "vitest";
import type { AskMessage } from "../../task/messages.js";
import { mountApp } from "./test-support/mount.js";
import type { Mounted } from "./test-support/mount.js";

let mounted: Mounted | undefined;
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
});

describe("issue #17 in the TUI", () => {
  it("a subagent's approval prompt names the subagent, and the answer reaches it", async () => {
    mounted = mountApp();
    const ask: AskMessage = {
      type: "ask",
      ask: "command",
      id: "general-1:m3",
      ts: 0,
      text: "[subagent general-1] npm test",
      partial: false,
      subagentId: "general-1",
      meta: { tool: "execute_command", command: "npm test" },
    };
    const answer = mounted.host.answerAsk(ask, new AbortController().signal);
    await mounted.tick();
    expect(mounted.frame()).toContain("[subagent general-1] Run this command?");
    await mounted.press("y");
    await expect(answer).resolves.toEqual({ response: "yes" });
  });
});
