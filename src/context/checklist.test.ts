import { describe, expect, it } from "vitest";
import type { Message } from "../llm/types.js";
import { checklistReminder, latestChecklist, parseChecklist, withChecklistReminder } from "./checklist.js";

const assistant = (text: string): Message => ({ role: "assistant", content: [{ type: "text", text }] });
const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });

describe("the task checklist (Cline's focus chain) is parsed, found and reminded of", () => {
  it("parses a markdown checklist, done and open", () => {
    expect(parseChecklist("intro\n- [x] Read the code\n- [ ] Fix the bug\n* [X] Done too\nnot an item")).toEqual([
      { text: "Read the code", done: true },
      { text: "Fix the bug", done: false },
      { text: "Done too", done: true },
    ]);
  });

  it("finds the latest list from task_progress (xml), update_checklist (native) or a compacted first message", () => {
    const xml = [user("<task>t</task>"), assistant("<read_file>\n<path>a</path>\n<task_progress>\n- [ ] one\n</task_progress>\n</read_file>"), user("r")];
    expect(latestChecklist(xml)).toEqual({ markdown: "- [ ] one", turnsSince: 0 });
    const native: Message[] = [
      user("t"),
      { role: "assistant", content: [{ type: "tool_use", id: "c", name: "update_checklist", input: { checklist: "- [x] one\n- [ ] two" } }] },
      user("r"),
      assistant("thinking"),
      user("r"),
    ];
    expect(latestChecklist(native)).toEqual({ markdown: "- [x] one\n- [ ] two", turnsSince: 1 });
    const compacted = [user("<task>t</task>"), { role: "user" as const, content: [{ type: "text" as const, text: "<current_checklist>\n- [ ] kept\n</current_checklist>" }] }];
    expect(latestChecklist(compacted)?.markdown).toBe("- [ ] kept");
  });

  it("reminds of the open items every N requests without an update, inside the environment details", () => {
    const messages: Message[] = [user("<task>t</task>"), assistant("<list_files>\n<path>.</path>\n<task_progress>\n- [x] done\n- [ ] open step\n</task_progress>\n</list_files>")];
    for (let turn = 1; turn <= 6; turn += 1) messages.push(user("result"), assistant("<list_files>\n<path>.</path>\n</list_files>"));
    // Six requests since the update: reminded; five would not be.
    const reminder = checklistReminder(messages, 6);
    expect(reminder).toContain("- [ ] open step");
    expect(reminder).not.toContain("done");
    expect(checklistReminder(messages.slice(0, -2), 6)).toBeUndefined();
    expect(withChecklistReminder("<environment_details>\nx\n</environment_details>", reminder)).toMatch(/^<environment_details>\nx\n# Task checklist reminder[\s\S]*open step[\s\S]*\n\n<\/environment_details>$/);
  });
});
