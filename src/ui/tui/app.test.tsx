import { afterEach, describe, expect, it, vi } from "vitest";

// Colours are part of what is asserted (diffs); Ink's colour library reads this when loaded.
vi.hoisted(() => {
  process.env["FORCE_COLOR"] = "1";
});

import type { AskMeta, SayMeta, ToolMetaOf } from "../../task/contracts/message-meta.js";
import type { AskMessage, AskType, AskResponse, SayType, UiMessage } from "../../task/contracts/messages.js";
import { FakeController } from "./test-support/fake-terminal.js";
import { mountApp } from "./test-support/mount.js";
import type { Mounted } from "./test-support/mount.js";

/** A `say` as the Task sends it; its meta is typed as its writers declare it (message-meta.ts). */
function say<K extends SayType>(id: string, kind: K, text: string, options: { partial?: boolean; meta?: SayMeta<K> } = {}): UiMessage {
  return { id, ts: 0, type: "say", say: kind, text, partial: options.partial ?? false, ...(options.meta === undefined ? {} : { meta: options.meta }) };
}

function ask<K extends AskType>(id: string, kind: K, text: string, meta?: AskMeta<K>, partial = false): AskMessage {
  return { id, ts: 0, type: "ask", ask: kind, text, partial, ...(meta === undefined ? {} : { meta }) };
}

const editDiff = ["--- a/src/math.ts", "+++ b/src/math.ts", "@@ -1,3 +1,3 @@", " export function add(a: number, b: number) {", "-  return a - b;", "+  return a + b;", " }"].join("\n");

let mounted: Mounted | undefined;
function mount(options: Parameters<typeof mountApp>[0] = {}): Mounted {
  mounted = mountApp(options);
  return mounted;
}
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
});

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

describe("the answer", () => {
  it("T4: streams text in place as partial updates of one message arrive", async () => {
    const ui = mount();
    ui.host.onMessage(say("a", "text", "Hel", { partial: true }));
    await ui.tick();
    expect(ui.frame()).toContain("Hel");
    ui.host.onMessage(say("a", "text", "Hello wor", { partial: true }));
    await ui.tick();
    ui.host.onMessage(say("a", "text", "Hello world, the bug is in add.", { partial: true }));
    await ui.tick();
    expect(ui.frame()).toContain("Hello world, the bug is in add.");
    expect(occurrences(ui.frame(), "Hel")).toBe(1);
    ui.host.onMessage(say("a", "text", "Hello world, the bug is in add.\nSecond line.", { partial: false }));
    await ui.tick();
    expect(occurrences(ui.frame(), "Hello world")).toBe(1);
    expect(ui.frame()).toContain("Second line.");
  });

  it("a streaming answer keeps updating in place when a checkpoint is shown after it", async () => {
    const ui = mount();
    ui.host.onMessage(say("a", "text", "This", { partial: true }));
    await ui.tick();
    ui.host.onMessage(say("k", "checkpoint_created", "f520fb59fd34aaaa", { meta: { hash: "f520fb59fd34aaaa" } }));
    await ui.tick();
    ui.host.onMessage(say("a", "text", "This sentence is complete.\nSecond line", { partial: true }));
    await ui.tick();
    expect(ui.frame()).toContain("This sentence is complete.");
    ui.host.onMessage(say("a", "text", "This sentence is complete.\nSecond line too.", { partial: false }));
    await ui.tick();
    const frame = ui.frame();
    expect(frame).toContain("Second line too.");
    expect(occurrences(frame, "This")).toBe(1);
    expect(frame.indexOf("Second line too.")).toBeLessThan(frame.indexOf("Checkpoint f520fb59fd34"));
  });

  it("a streaming reasoning keeps updating when a warning arrives meanwhile", async () => {
    const ui = mount();
    ui.host.onMessage(say("r", "reasoning", "Let me th", { partial: true }));
    await ui.tick();
    ui.host.onMessage(say("w", "warning", "MCP servers not ready yet"));
    await ui.tick();
    ui.host.onMessage(say("r", "reasoning", "Let me think about add.", { partial: false }));
    await ui.tick();
    expect(ui.frame()).toContain("Let me think about add.");
  });

  it("renders markdown: headings, lists, emphasis, inline code and fenced code", async () => {
    const ui = mount();
    const text = ["## The fix", "", "The **sum** is *wrong* in `add`:", "- read the test", "1. change the sign", "```ts", "return a + b; // **not bold**", "```"].join("\n");
    ui.host.onMessage(say("a", "text", text));
    await ui.tick();
    const frame = ui.frame();
    expect(frame).toContain("The fix");
    expect(frame).not.toContain("##");
    expect(frame).toContain("The sum is wrong in add:");
    expect(frame).toContain("• read the test");
    expect(frame).toContain("1. change the sign");
    expect(frame).toContain("┌ ts");
    expect(frame).toContain("│ return a + b; // **not bold**");
    const raw = ui.rawFrame();
    expect(raw).toContain("\u001b[1msum\u001b[22m");
    expect(raw).toContain("\u001b[3mwrong\u001b[23m");
    expect(raw).toContain("\u001b[36madd\u001b[39m");
  });

  it("folds reasoning to its first line and unfolds the last one with Ctrl+O", async () => {
    const ui = mount();
    ui.host.onMessage(say("r", "reasoning", "The test adds 2 and 3.\nIt expects 5.\nadd subtracts."));
    ui.host.onMessage(say("a", "text", "Found it."));
    await ui.tick();
    expect(ui.frame()).toContain("✻ The test adds 2 and 3. (3 lines)");
    expect(ui.frame()).not.toContain("add subtracts.");
    await ui.press("\u000f");
    expect(ui.frame()).toContain("add subtracts.");
    await ui.press("\u000f");
    expect(ui.frame()).not.toContain("add subtracts.");
  });

  it("shows the completion result under a heading", async () => {
    const ui = mount();
    ui.host.onMessage(say("c", "completion_result", "Fixed `add`; the test passes."));
    await ui.tick();
    expect(ui.frame()).toContain("✓ Task completed");
    expect(ui.frame()).toContain("Fixed add; the test passes.");
  });
});

describe("tools and asks", () => {
  it("fills a tool card in as the call streams, then shows the diff before approval", async () => {
    const ui = mount();
    ui.host.onMessage(ask("t", "tool", "", { tool: "replace_in_file", path: "" }, true));
    await ui.tick();
    expect(ui.frame()).toMatch(/● Edit\s+…/);
    ui.host.onMessage(ask("t", "tool", "", { tool: "replace_in_file", path: "src/math.ts" }, true));
    await ui.tick();
    expect(ui.frame()).toContain("● Edit src/math.ts …");
    const answer = ui.host.answerAsk(ask("t", "tool", "", { tool: "replace_in_file", path: "src/math.ts", diff: editDiff }), new AbortController().signal);
    await ui.tick();
    const raw = ui.rawFrame();
    expect(raw).toContain("\u001b[32m+  return a + b;\u001b[39m");
    expect(raw).toContain("\u001b[31m-  return a - b;\u001b[39m");
    expect(raw).toContain("\u001b[36m@@ -1,3 +1,3 @@\u001b[39m");
    expect(ui.frame()).toContain("Allow this?");
    await ui.press("1");
    await expect(answer).resolves.toEqual({ response: "yes" });
    await ui.tick();
    expect(ui.frame()).toContain("✓ approved");
    expect(ui.frame()).not.toContain("Allow this?");
  });

  async function answerWith(keys: string[], kind: AskMessage["ask"] = "command"): Promise<{ answer: AskResponse; frame: string }> {
    const ui = mount();
    const pending = ui.host.answerAsk(ask("c", kind, "npm test", { tool: "execute_command", command: "npm test" }), new AbortController().signal);
    await ui.tick();
    for (const key of keys) await ui.press(key);
    const answer = await pending;
    await ui.tick();
    return { answer, frame: ui.frame() };
  }

  it("approves with Enter", async () => {
    const { answer, frame } = await answerWith(["\r"]);
    expect(answer).toEqual({ response: "yes" });
    expect(frame).toContain("$ npm test");
  });

  it("rejects with the No choice", async () => {
    const { answer, frame } = await answerWith(["2"]);
    expect(answer).toEqual({ response: "no" });
    expect(frame).toContain("✗ rejected");
  });

  it("answers with a typed message, which may start with y or n: the call is rejected with the message", async () => {
    const { answer, frame } = await answerWith(["n", "o", ",", " ", "run it with --watch=false", "\r"]);
    expect(answer).toEqual({ response: "no", text: "no, run it with --watch=false" });
    // the Task repeats a typed reply as user_feedback; the card says it did not run
    expect(frame).toContain("✗ rejected");
    expect(frame).not.toContain("approved");
  });

  it("picks follow-up options with the arrow keys or a digit", async () => {
    const ui = mount();
    const options: ToolMetaOf<"ask_followup_question"> = { tool: "ask_followup_question", options: ["Use vitest", "Use jest", "Use node:test"] };
    const first = ui.host.answerAsk(ask("f1", "followup", "Which **runner**?", options), new AbortController().signal);
    await ui.tick();
    expect(ui.frame()).toContain("Which runner?");
    expect(ui.frame()).toContain("› 1. Use vitest");
    await ui.press("\u001b[B");
    expect(ui.frame()).toContain("› 2. Use jest");
    await ui.press("\r");
    await expect(first).resolves.toEqual({ response: "message", text: "Use jest" });
    const second = ui.host.answerAsk(ask("f2", "followup", "And then?", options), new AbortController().signal);
    await ui.tick();
    await ui.press("3");
    await expect(second).resolves.toEqual({ response: "message", text: "Use node:test" });
  });

  it("shows a command's live output as its last lines, then its exit status", async () => {
    const ui = mount();
    ui.host.onMessage(say("cmd", "command", "npm test", { meta: { tool: "execute_command", command: "npm test" } }));
    const lines = Array.from({ length: 30 }, (_, index) => `test line ${index + 1}`);
    ui.host.onMessage(say("out", "command_output", lines.slice(0, 20).join("\n"), { partial: true }));
    await ui.tick();
    expect(ui.frame()).toContain("test line 20");
    expect(ui.frame()).not.toContain("test line 12\n");
    expect(ui.frame()).toContain("running…");
    ui.host.onMessage(say("out", "command_output", `${lines.join("\n")}\n`, { partial: false, meta: { tool: "execute_command", end: { kind: "exited", exitCode: 1, signal: null }, durationMs: 40 } }));
    await ui.tick();
    expect(ui.frame()).toContain("test line 30");
    expect(ui.frame()).toContain("exit 1");
  });

  it("T11: counts down to a retry after a provider error", async () => {
    const ui = mount();
    ui.host.onMessage(say("e", "error_retry", "529 overloaded", { meta: { attempt: 2, delayMs: 5000, retryAt: ui.clock.now() + 5000, kind: "overloaded" } }));
    await ui.tick(0);
    expect(ui.frame()).toContain("⟳ 529 overloaded — retrying in 5s (attempt 2)");
    await ui.tick(2000);
    expect(ui.frame()).toContain("retrying in 3s");
    await ui.tick(3000);
    expect(ui.frame()).toContain("retrying now");
  });

  it("shows a spinner with elapsed time from the request start to the first token", async () => {
    const ui = mount();
    ui.host.onMessage(say("req", "api_req_started", "", { partial: true }));
    await ui.tick(0);
    expect(ui.frame()).toContain("Waiting for the model… 0s");
    await ui.tick(3000);
    expect(ui.frame()).toContain("Waiting for the model… 3s");
    ui.host.onMessage(say("a", "text", "First token", { partial: true }));
    await ui.tick();
    expect(ui.frame()).not.toContain("Waiting for the model");
    expect(ui.frame()).toContain("First token");
  });
});

describe("keys and status", () => {
  it("shows model, mode, context use and cost in the status line", async () => {
    const ui = mount();
    await ui.tick();
    expect(ui.frame()).toMatch(/ACT · claude-sonnet-4-5 · 12k\/200k \(6%\) · \$0\.0123/);
  });

  it("Tab toggles plan/act mode", async () => {
    const ui = mount();
    await ui.tick();
    await ui.press("\t");
    expect(ui.frame()).toContain("PLAN · claude-sonnet-4-5");
    await ui.press("\t");
    expect(ui.frame()).toContain("ACT · claude-sonnet-4-5");
  });

  it("T5: Esc aborts the current step", async () => {
    const ui = mount();
    await ui.tick();
    await ui.press("\u001b");
    expect(ui.controller.aborts).toBe(1);
    expect(ui.controller.exits).toBe(0);
  });

  it("the first Ctrl+C aborts, the second exits", async () => {
    const ui = mount();
    await ui.tick();
    await ui.press("\u0003");
    expect(ui.controller.aborts).toBe(1);
    expect(ui.controller.exits).toBe(0);
    expect(ui.frame()).toContain("Press Ctrl+C again to quit");
    await ui.press("\u0003");
    expect(ui.controller.exits).toBe(1);
  });

  it("Enter sends the typed task; backspace edits it", async () => {
    const controller = new FakeController();
    controller.current = { ...controller.current, busy: false };
    const ui = mount({ controller });
    await ui.tick();
    expect(ui.frame()).toContain("What should cairn do?");
    await ui.press("fix the bugg");
    await ui.press("\u007f");
    expect(ui.frame()).toContain("› fix the bug");
    await ui.press("\r");
    expect(ui.controller.submitted).toEqual(["fix the bug"]);
    expect(ui.frame()).not.toContain("fix the bug");
  });

  it("after completion, typed text answers the completion ask as feedback", async () => {
    const ui = mount();
    const pending = ui.host.answerAsk(ask("done", "completion_result", ""), new AbortController().signal);
    await ui.tick();
    expect(ui.frame()).toContain("Done? Enter accepts, or type feedback to continue.");
    await ui.press("now add a test");
    await ui.press("\r");
    await expect(pending).resolves.toEqual({ response: "message", text: "now add a test" });
    expect(ui.controller.submitted).toEqual([]);
  });
});
