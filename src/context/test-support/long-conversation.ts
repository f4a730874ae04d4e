import type { Message } from "../../llm/types.js";

/** A conversation long enough to be condensed: the task and `turns` tool rounds. */
export function conversation(turns: number, task = "read the listings"): Message[] {
  const messages: Message[] = [{ role: "user", content: [{ type: "text", text: `<task>\n${task}\n</task>` }] }];
  for (let turn = 0; turn < turns; turn += 1) {
    messages.push({ role: "assistant", content: [{ type: "text", text: `<list_files>\n<path>dir${turn}</path>\n</list_files>` }] });
    messages.push({
      role: "user",
      content: [
        { type: "text", text: `[list_files for 'dir${turn}'] Result:` },
        { type: "text", text: `entry ${turn} `.repeat(60) },
      ],
    });
  }
  return messages;
}
