/**
 * The size cap of what a tool from outside cairn returns to the model (an MCP
 * server's result, an embedding program's custom tool): text parts are cut so
 * their total stays within the limit, with a note saying so.
 */
import type { ImageContent, TextContent } from "../llm/types.js";

/** Characters of text passed to the model from one result. */
export const defaultMaxResultChars = 100_000;

type Part = TextContent | ImageContent;

/** The parts as they are when their text fits; otherwise cut, ending with a note of the sizes. */
export function capTextParts(parts: Part[], maxTextChars: number = defaultMaxResultChars): Part[] {
  const total = parts.reduce((sum, part) => sum + (part.type === "text" ? part.text.length : 0), 0);
  if (total <= maxTextChars) return parts;
  let remaining = maxTextChars;
  const capped: Part[] = [];
  for (const part of parts) {
    if (part.type !== "text") {
      capped.push(part);
      continue;
    }
    if (remaining <= 0) continue;
    capped.push({ type: "text", text: part.text.slice(0, remaining) });
    remaining -= Math.min(remaining, part.text.length);
  }
  capped.push({ type: "text", text: `[Output truncated: ${maxTextChars} of ${total} characters shown. Ask for less data if you need the rest.]` });
  return capped;
}
