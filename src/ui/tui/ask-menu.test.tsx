/**
 * Approvals and the other yes/no questions are a menu answered by number, or by
 * arrows and Enter; typed letters never answer, they start the "Tell cairn what
 * to do instead" reply. The plan prompt's Tab approves the plan in act mode.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AskMeta } from "../../task/contracts/message-meta.js";
import type { AskMessage, AskResponse, AskType } from "../../task/contracts/messages.js";
import type { InputHistoryStore } from "./controller.js";
import { FakeController } from "./test-support/fake-terminal.js";
import { mountApp } from "./test-support/mount.js";
import type { Mounted } from "./test-support/mount.js";

function ask<K extends AskType>(id: string, kind: K, text: string, meta?: AskMeta<K>): AskMessage {
  return { id, ts: 0, type: "ask", ask: kind, text, partial: false, ...(meta === undefined ? {} : { meta }) };
}

class MemoryHistory implements InputHistoryStore {
  readonly added: string[] = [];
  entries(): readonly string[] {
    return this.added;
  }
  add(text: string): void {
    this.added.push(text);
  }
}

let mounted: Mounted | undefined;
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
});

const down = "\u001b[B";
const up = "\u001b[A";

async function commandAsk(options: { suggestedRule?: string; reason?: string; history?: MemoryHistory } = {}): Promise<{ ui: Mounted; answer: Promise<AskResponse>; settled: () => boolean }> {
  mounted = mountApp(options.history === undefined ? {} : { history: options.history });
  const meta: AskMeta<"command"> = {
    tool: "execute_command",
    command: "npm test",
    approval: "ask",
    ...(options.suggestedRule === undefined ? {} : { suggestedRule: options.suggestedRule }),
    ...(options.reason === undefined ? {} : { reason: options.reason }),
  };
  let done = false;
  const answer = mounted.host.answerAsk(ask("c", "command", "npm test", meta), new AbortController().signal);
  void answer.then(() => {
    done = true;
  });
  await mounted.tick();
  return { ui: mounted, answer, settled: () => done };
}

describe("the approval menu", () => {
  it("lists Yes, No and Tell cairn what to do instead, numbered, the first one highlighted", async () => {
    const { ui } = await commandAsk();
    const frame = ui.frame();
    expect(frame).toContain("Run this command?");
    expect(frame).toMatch(/› 1\. Yes\n/);
    expect(frame).toMatch(/ {2}2\. No\n/);
    expect(frame).toMatch(/ {2}3\. Tell cairn what to do instead/);
    expect(frame).not.toMatch(/y\/Enter|n no/);
  });

  it("offers Yes, and always allow <rule> when the ask suggests a rule; choosing it answers yes, always, with no text of the user's", async () => {
    const { ui, answer } = await commandAsk({ suggestedRule: "Bash(npm test:*)" });
    expect(ui.frame()).toMatch(/2\. Yes, and always allow Bash\(npm test:\*\)/);
    expect(ui.frame()).toMatch(/3\. No/);
    await ui.press("2");
    await expect(answer).resolves.toEqual({ response: "yes", always: "user" });
  });

  it("says why cairn asks when the approval policy gave a reason (the sandbox cannot run here)", async () => {
    const reason = "the sandbox cannot run here, and this command is not known to be read-only";
    const { ui } = await commandAsk({ reason });
    expect(ui.frame().replace(/\s+/g, " ")).toContain(`Asked because ${reason}`);
    ui.unmount();
    const { ui: plain } = await commandAsk();
    expect(plain.frame()).not.toContain("Asked because");
  });

  it("typing 'no wait' answers nothing: it opens the reply to cairn with the typed text, and Enter sends it as the reply", async () => {
    const history = new MemoryHistory();
    const { ui, answer, settled } = await commandAsk({ history });
    for (const key of ["n", "o", " ", "w", "a", "i", "t"]) await ui.press(key);
    await ui.tick();
    expect(settled()).toBe(false);
    expect(ui.frame()).toContain("› no wait");
    expect(ui.frame()).toContain("Tell cairn what to do instead");
    await ui.press("\r");
    // A "no" with the text: the call does not run, the model reads the text.
    await expect(answer).resolves.toEqual({ response: "no", text: "no wait" });
    // The reply is in the ↑ history like any message.
    expect(history.added).toEqual(["no wait"]);
  });

  it("a message starting with y does not approve", async () => {
    const { ui, answer } = await commandAsk();
    await ui.press("y");
    await ui.press("es but only the unit tests");
    await ui.press("\r");
    await expect(answer).resolves.toEqual({ response: "no", text: "yes but only the unit tests" });
  });

  it("no typed reply approves: 'always' typed is a no with that text (the always choice is the way to say it)", async () => {
    const { ui, answer } = await commandAsk({ suggestedRule: "Bash(npm test:*)" });
    await ui.press("always");
    await ui.press("\r");
    await expect(answer).resolves.toEqual({ response: "no", text: "always" });
  });

  it("the arrows move the highlight and Enter chooses it; the number chooses at once", async () => {
    const first = await commandAsk();
    await first.ui.press(down);
    await first.ui.tick();
    expect(first.ui.frame()).toMatch(/› 2\. No/);
    await first.ui.press(down);
    await first.ui.press(up);
    await first.ui.press("\r");
    await expect(first.answer).resolves.toEqual({ response: "no" });
    first.ui.unmount();
    mounted = undefined;

    const second = await commandAsk();
    await second.ui.press("1");
    await expect(second.answer).resolves.toEqual({ response: "yes" });
    await second.ui.tick();
    expect(second.ui.frame()).toContain("✓ approved");
  });

  it("Tell cairn what to do instead opens a text input; Esc goes back to the choices without answering", async () => {
    const { ui, answer, settled } = await commandAsk();
    await ui.press("3");
    await ui.tick();
    expect(settled()).toBe(false);
    expect(ui.frame()).toMatch(/Tell cairn what to do instead.*Enter sends/);
    // Enter with nothing typed sends nothing.
    await ui.press("\r");
    expect(settled()).toBe(false);
    await ui.press("\u001b");
    await ui.tick();
    expect(settled()).toBe(false);
    expect(ui.controller.aborts).toBe(0);
    expect(ui.frame()).toMatch(/› 1\. Yes/);
    await ui.press("3");
    await ui.press("use the watch mode off");
    await ui.press("\r");
    await expect(answer).resolves.toEqual({ response: "no", text: "use the watch mode off" });
  });

  it("the other yes/no questions are menus too: a failed request offers Retry and Stop", async () => {
    mounted = mountApp();
    const answer = mounted.host.answerAsk(ask("f", "api_req_failed", "529 overloaded", { kind: "overloaded" }), new AbortController().signal);
    await mounted.tick();
    expect(mounted.frame()).toMatch(/› 1\. Retry/);
    expect(mounted.frame()).toMatch(/2\. Stop the task/);
    // Letters answer nothing (a retry has nothing to tell the model): only the choices do.
    await mounted.press("n");
    await mounted.press("y");
    await mounted.tick();
    expect(mounted.frame()).toMatch(/› 1\. Retry/);
    await mounted.press("2");
    await expect(answer).resolves.toEqual({ response: "no" });
  });
});

describe("the plan prompt", () => {
  it("Tab switches to act mode and approves the plan, with what was typed", async () => {
    const controller = new FakeController();
    controller.current = { ...controller.current, mode: "plan" };
    mounted = mountApp({ controller });
    const answer = mounted.host.answerAsk(ask("p", "plan_mode_respond", "1. Fix add\n2. Test it", { tool: "plan_mode_respond" }), new AbortController().signal);
    await mounted.tick();
    expect(mounted.frame()).toContain("Reply to the plan, or Tab to switch to act mode");
    await mounted.press("\t");
    await expect(answer).resolves.toEqual({ response: "yes" });
    await mounted.tick();
    expect(mounted.frame()).toContain("ACT · ");
  });

  it("a typed reply goes to the model as a message and into the ↑ history", async () => {
    const history = new MemoryHistory();
    const controller = new FakeController();
    controller.current = { ...controller.current, mode: "plan" };
    mounted = mountApp({ controller, history });
    const answer = mounted.host.answerAsk(ask("p", "plan_mode_respond", "1. Fix add", { tool: "plan_mode_respond" }), new AbortController().signal);
    await mounted.tick();
    await mounted.press("yes, and also the docs");
    await mounted.press("\r");
    await expect(answer).resolves.toEqual({ response: "message", text: "yes, and also the docs" });
    expect(history.added).toEqual(["yes, and also the docs"]);
    expect(controller.current.mode).toBe("plan");
  });
});

describe("replies go into the input history", () => {
  it("a typed follow-up answer and completion feedback are remembered for ↑", async () => {
    const history = new MemoryHistory();
    mounted = mountApp({ history });
    const followup = mounted.host.answerAsk(ask("f", "followup", "Which runner?", { tool: "ask_followup_question", options: ["vitest", "jest"] }), new AbortController().signal);
    await mounted.tick();
    await mounted.press("node:test please");
    await mounted.press("\r");
    await expect(followup).resolves.toEqual({ response: "message", text: "node:test please" });
    const completion = mounted.host.answerAsk(ask("d", "completion_result", ""), new AbortController().signal);
    await mounted.tick();
    await mounted.press("now add a test");
    await mounted.press("\r");
    await expect(completion).resolves.toEqual({ response: "message", text: "now add a test" });
    expect(history.added).toEqual(["node:test please", "now add a test"]);
    await mounted.press(up);
    await mounted.tick();
    expect(mounted.frame()).toContain("› now add a test");
  });

  it("an MCP server's form: a field's options are picked by number, an empty optional field is left out, Esc declines", async () => {
    mounted = mountApp();
    const meta = (field: string, index: number, extra: Partial<AskMeta<"elicitation">>): AskMeta<"elicitation"> => ({
      server: "bistro",
      message: "Which table?",
      field,
      type: "string",
      required: true,
      index,
      count: 3,
      ...extra,
    });
    const seating = mounted.host.answerAsk(ask("e1", "elicitation", "Seating:", meta("seating", 1, { options: ["inside", "terrace"] })), new AbortController().signal);
    await mounted.tick();
    expect(mounted.frame()).toMatch(/1\. inside[\s\S]*2\. terrace[\s\S]*Esc declines the form · field 1 of 3/);
    await mounted.press("2");
    await expect(seating).resolves.toEqual({ response: "message", text: "terrace" });
    const note = mounted.host.answerAsk(ask("e2", "elicitation", "Note [optional]:", meta("note", 2, { required: false })), new AbortController().signal);
    await mounted.tick();
    expect(mounted.frame()).toContain("(empty: leave it out)");
    await mounted.press("\r");
    await expect(note).resolves.toEqual({ response: "yes" });
    const guests = mounted.host.answerAsk(ask("e3", "elicitation", "Guests:", meta("guests", 3, { type: "integer" })), new AbortController().signal);
    await mounted.tick();
    await mounted.press("\u001b");
    await expect(guests).resolves.toEqual({ response: "no" });
  });
});
