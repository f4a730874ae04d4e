import type { ContentBlock, Message, ToolResultContent } from "./types.js";

export const interruptedToolResultText = "[interrupted: this tool call was not known to have run]";

function interrupted(toolUseId: string): ToolResultContent {
  return { type: "tool_result", toolUseId, content: interruptedToolResultText, isError: true };
}

function resultText(result: ToolResultContent): string {
  if (typeof result.content === "string") return result.content;
  return result.content.map((part) => (part.type === "text" ? part.text : `[image ${part.mediaType}]`)).join("\n");
}

/**
 * Both APIs answer 400 when a tool use has no result in the next user message, or a result has
 * no tool use just before it. This returns a history where every tool use of an assistant message
 * has exactly one result at the start of the following user message: a missing one becomes an
 * explicit "interrupted" error result, a duplicate is dropped, and an orphan result is kept as
 * plain text so what it said is not lost. The input is not modified.
 */
export function ensureToolResultPairing(messages: Message[]): Message[] {
  const paired: Message[] = [];
  let expected: string[] = [];
  const flushMissing = (): void => {
    if (expected.length === 0) return;
    paired.push({ role: "user", content: expected.map(interrupted) });
    expected = [];
  };
  for (const message of messages) {
    if (message.role === "assistant") {
      flushMissing();
      paired.push(message);
      expected = message.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : []));
      continue;
    }
    const results = new Map<string, ToolResultContent>();
    const rest: ContentBlock[] = [];
    for (const block of message.content) {
      if (block.type !== "tool_result") {
        rest.push(block);
      } else if (expected.includes(block.toolUseId)) {
        if (!results.has(block.toolUseId)) results.set(block.toolUseId, block);
      } else {
        rest.push({ type: "text", text: `[result of tool call ${block.toolUseId}, which is not in the history]\n${resultText(block)}` });
      }
    }
    const ordered = expected.map((id) => results.get(id) ?? interrupted(id));
    expected = [];
    paired.push({ role: "user", content: [...ordered, ...rest] });
  }
  flushMissing();
  return paired;
}
