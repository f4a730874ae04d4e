import { describe, expect, it } from "vitest";
import type { UiMessage } from "../task/contracts/messages.js";
import { loggedMode, loggedModel } from "./task-mode.js";

const info = (id: string, meta: Record<string, unknown>): UiMessage => ({ type: "say", say: "info", id, ts: 1, text: id, partial: false, meta });

describe("what a served task's log says it was switched to", () => {
  const log: UiMessage[] = [
    info("a", { model: "model-a", by: "web" }),
    info("b", { mode: "plan", by: "terminal" }),
    // Later `info` messages that are not a client's choice: a subagent's link and a report that names models.
    info("c", { subagentId: "s1", agent: "reviewer", childTaskId: "t2" }),
    info("d", { model: "model-of-a-report" }),
  ];

  it("the model is the last one a client chose, not any later message that mentions a model", () => {
    expect(loggedModel(log)).toBe("model-a");
    expect(loggedModel([...log, info("e", { model: "model-e", by: "attach" })])).toBe("model-e");
  });

  it("the mode is the last one a client switched to; a log without a switch has none", () => {
    expect(loggedMode(log)).toBe("plan");
    expect(loggedMode(log.filter((message) => message.id !== "b"))).toBeUndefined();
    expect(loggedModel([])).toBeUndefined();
  });
});
