import { describe, expect, it } from "vitest";
import { askButtons } from "./ask-answers.js";

const ask = (kind: string, meta?: Record<string, unknown>) => ({ type: "ask" as const, ask: kind, id: "a", ts: 1, taskId: "t", text: "", partial: false, ...(meta === undefined ? {} : { meta }) });

describe("askButtons", () => {
  it("offers an approval's menu as the terminal does, 'always allow' its suggested rule included", () => {
    const { buttons, typed } = askButtons(ask("tool", { tool: "write_to_file", path: "a.txt", suggestedRule: "Edit(a.txt)" }));
    expect(typed).toBe(false);
    expect(buttons).toEqual([
      { label: "Yes", response: "yes", withText: false },
      { label: "Yes, and always allow Edit(a.txt)", response: "yes", withText: false, always: "user" },
      { label: "No", response: "no", withText: false },
      { label: "Tell cairn what to do instead", response: "no", withText: true },
    ]);
  });

  it("answers a follow-up question with its options or typed words", () => {
    const { buttons, options, typed } = askButtons(ask("followup", { tool: "ask_followup_question", options: ["red", "blue"] }));
    expect({ options, typed }).toEqual({ options: ["red", "blue"], typed: true });
    expect(buttons).toEqual([{ label: "Reply", response: "message", withText: true }]);
  });

  it("lets the completion be accepted, or answered with more to do", () => {
    expect(askButtons(ask("completion_result")).buttons.map((button) => [button.label, button.response])).toEqual([
      ["Done", "yes"],
      ["Reply", "message"],
    ]);
  });

  it("offers retry or stop for a failed request", () => {
    expect(askButtons(ask("api_req_failed")).buttons.map((button) => button.label)).toEqual(["Retry", "Stop the task"]);
  });
});
