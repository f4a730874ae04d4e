import { describe, expect, it } from "vitest";
import type { Block, ToolUseBlock } from "../parser/types.js";
import { presentAssistantMessage } from "./present-assistant-message.js";
import type { PresenterContext } from "./present-assistant-message.js";
import { TaskState } from "./task-state.js";
import { complete, makeTask, messageText } from "./test-support/make-task.js";
import { deferred, text, textChunks } from "./test-support/gated-provider.js";

// #11 "tests that could not fail": each test here fails when the named safeguard is removed.

describe("safeguards a deliberate code change must not slip past", () => {
  it("P6: the block is copied before use, so the stream changing the original does not reach a running tool", async () => {
    const original: ToolUseBlock = { type: "tool_use", id: "t1", name: "write_to_file", params: { path: "a.ts", content: "first" }, partial: false };
    const items: Block[] = [original];
    const taskState = new TaskState();
    taskState.startRound({ length: items.length, at: (index) => items[index] });
    let seen: Record<string, string> | undefined;
    const context: PresenterContext = {
      taskState,
      parallelTools: true,
      say: () => "id",
      textCleaner: () => (raw) => raw,
      presentPartialTool: () => undefined,
      runTool: async (block) => {
        // The stream keeps changing the block it owns while the tool runs.
        original.params["content"] = "changed by the stream";
        original.params["path"] = "other.ts";
        await new Promise((resolve) => setTimeout(resolve, 1));
        seen = { ...block.params };
      },
      skipTool: async () => undefined,
      presentAssistantMessage: () => presentAssistantMessage(context),
    };
    await presentAssistantMessage(context);
    expect(seen).toEqual({ path: "a.ts", content: "first" });
  });

  it("T5: the TaskCancel hook is decided before the abort flag is set", async () => {
    const gate = deferred();
    const flagWhenDecided: boolean[] = [];
    const fixture = makeTask([[{ type: "gate", wait: () => gate.promise }]], {
      hooks: {
        taskStart: async () => {},
        taskCancel: async () => {},
        cancelRunning: () => undefined,
        hasTaskCancel: () => {
          flagWhenDecided.push(fixture.task.taskState.abort);
          return true;
        },
      },
    });
    const running = fixture.task.startTask("t");
    await new Promise((resolve) => setTimeout(resolve, 5));
    await fixture.task.abortTask();
    await running;
    expect(flagWhenDecided).toEqual([false]);
  });

  it("T9: feedback from the user resets the mistake count", async () => {
    const write = "<write_to_file>\n<path>x</path>\n<content>1</content>\n</write_to_file>";
    const asks: string[] = [];
    const { task } = makeTask([[text("<fail>\n</fail>")], [text("<fail>\n</fail>")], [text(write)], [text("<fail>\n</fail>")], textChunks(complete(), 5)], {
      maxMistakes: 3,
      answer: (message) => {
        asks.push(message.ask);
        if (message.ask === "tool") return { response: "no", text: "write y instead" };
        return { response: "yes" };
      },
    });
    expect((await task.startTask("t")).status).toBe("completed");
    expect(asks).not.toContain("mistake_limit_reached");
  });

  it("the fake tool executor keeps the real contract: a tool's exception becomes a tool error, and the task goes on", async () => {
    const { task, tools, provider } = makeTask([[text("<read_file>\n<path>a</path>\n</read_file>")], textChunks(complete(), 5)], { yes: true });
    tools.setHandler("read_file", async () => {
      throw new Error("disk on fire");
    });
    expect((await task.startTask("t")).status).toBe("completed");
    const results = messageText(provider.requests[1]!.messages.at(-1));
    expect(results).toContain("disk on fire");
  });
});
