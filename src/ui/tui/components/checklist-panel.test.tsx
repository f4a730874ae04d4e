import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import type { UiMessage } from "../../../task/contracts/messages.js";
import { ChecklistPanel } from "./checklist-panel.js";

const message = (text: string): UiMessage => ({ type: "say", say: "checklist", id: "c1", ts: 0, text, partial: false });

describe("ChecklistPanel pins the task checklist in the TUI", () => {
  it("shows the latest list with done and open items and a count", () => {
    const { lastFrame } = render(<ChecklistPanel message={message("- [x] Read the parser\n- [ ] Cache the tokens\n- [ ] Run the benchmark")} width={60} />);
    const frame = lastFrame() ?? "";
    expect(frame).toContain("Checklist 1/3");
    expect(frame).toContain("✓ Read the parser");
    expect(frame).toContain("○ Cache the tokens");
    expect(frame).toContain("○ Run the benchmark");
  });

  it("keeps the current step visible in a long list and shows nothing without a list", () => {
    const items = Array.from({ length: 20 }, (_, index) => `- [${index < 14 ? "x" : " "}] Step ${index + 1}`).join("\n");
    const frame = render(<ChecklistPanel message={message(items)} width={60} />).lastFrame() ?? "";
    expect(frame).toContain("Checklist 14/20");
    expect(frame).toContain("○ Step 15");
    expect(frame).toContain("… 12 done above");
    expect(frame).not.toMatch(/Step 12\b/);
    expect(render(<ChecklistPanel message={undefined} width={60} />).lastFrame()).toBe("");
  });
});
