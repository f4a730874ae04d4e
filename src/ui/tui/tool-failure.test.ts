import { describe, expect, it } from "vitest";
import type { UiMessage } from "../../task/contracts/messages.js";
import { ManualClock } from "./test-support/fake-terminal.js";
import { TuiHost } from "./tui-host.js";

describe("a failed tool is visible in the terminal UI", () => {
  it("a tool card printed before its tool failed gets a card of its own with the failure", () => {
    const clock = new ManualClock();
    const host = new TuiHost({ clock });
    const card: UiMessage = { id: "call-1", ts: 0, type: "say", say: "tool", text: "Read missing.txt", partial: false, meta: { tool: "read_file", path: "missing.txt", approval: "auto" } };
    host.onMessage(card);
    clock.advance(100);
    host.onMessage({ ...card, meta: { ...card.meta, status: "error", error: "there is no file at missing.txt." } });
    clock.advance(100);
    const printed = host.getSnapshot().staticItems.map((item) => JSON.stringify(item));
    expect(printed.filter((item) => item.includes("there is no file at missing.txt"))).toHaveLength(1);
  });
});
