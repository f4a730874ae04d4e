import { afterEach, describe, expect, it } from "vitest";
import type { AskMessage, SayMessage } from "../../task/contracts/messages.js";
import { mountApp } from "./test-support/mount.js";
import type { Mounted } from "./test-support/mount.js";

let mounted: Mounted | undefined;
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
});

describe("subagents in the TUI: approval prompts and cards", () => {
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
    await mounted.press("1");
    await expect(answer).resolves.toEqual({ response: "yes" });
  });

  it("each running subagent is one card (current tool, tokens, elapsed time); its messages fold into it; the card goes when the parent reports its end", async () => {
    mounted = mountApp();
    const child = (id: string, say: SayMessage["say"], text: string, meta: Record<string, unknown> = {}, partial = false): SayMessage => ({
      type: "say",
      say,
      id: `explore-1:${id}`,
      ts: 0,
      text,
      partial,
      subagentId: "explore-1",
      meta,
    });
    mounted.host.onMessage(child("m1", "task", "ALPHA: look around"));
    mounted.host.onMessage(child("m2", "api_req_started", "", { tokensIn: 120, tokensOut: 30 }));
    mounted.host.onMessage(child("m3", "text", "I will read the file now, the detail stays in the card."));
    mounted.host.onMessage(child("m4", "tool", "Read src/a.ts", { tool: "read_file", path: "src/a.ts" }));
    await mounted.tick(3000);
    expect(mounted.frame()).toMatch(/◆ explore-1 · read_file src\/a\.ts · 150 tokens · [23]s/);
    expect(mounted.frame()).not.toContain("the detail stays in the card");
    // Ctrl+O (details) expands the cards: the child's latest messages show under its card.
    await mounted.press("\u000f");
    await mounted.tick();
    expect(mounted.frame()).toMatch(/▼ explore-1/);
    expect(mounted.frame()).toContain("text: I will read the file now, the detail stays in the card.");
    await mounted.press("\u000f");
    await mounted.tick();
    expect(mounted.frame()).not.toContain("the detail stays in the card");
    mounted.host.onMessage(child("m5", "api_req_started", "", { tokensIn: 1330, tokensOut: 100 }));
    await mounted.tick();
    expect(mounted.frame()).toContain("1.6k tokens");
    const report: SayMessage = { type: "say", say: "info", id: "p9", ts: 0, text: "Subagent explore-1 completed (1450 tokens, $0.0040).", partial: false, meta: { subagentReport: { subagentId: "explore-1" } } };
    mounted.host.onMessage(report);
    await mounted.tick();
    expect(mounted.frame()).not.toContain("◆ explore-1");
    expect(mounted.frame()).toContain("Subagent explore-1 completed");
  });

  it("the use_subagents card names every child it starts, each with its type and prompt", async () => {
    mounted = mountApp();
    const subagents = [
      { subagentId: "explore-1", agent: "explore", prompt: "Find every place that prints a price" },
      { subagentId: "general-2", agent: "general", prompt: "Make price() add VAT\nand run the check" },
    ];
    mounted.host.onMessage({
      type: "say",
      say: "tool",
      id: "m1",
      ts: 0,
      text: subagents.map((item) => `${item.subagentId}: ${item.prompt}`).join("\n"),
      partial: false,
      meta: { tool: "use_subagents", subagents },
    });
    await mounted.tick();
    const frame = mounted.frame();
    expect(frame).toContain("● Subagents explore-1, general-2");
    expect(frame).toContain("explore-1 (explore): Find every place that prints a price");
    expect(frame).toContain("general-2 (general): Make price() add VAT");
  });
});
