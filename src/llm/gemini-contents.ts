import type { Content, FunctionDeclaration, Part } from "@google/genai";
import { DroppedReasoning, signatureOwner, signaturePayload } from "./reasoning-signature.js";
import { ensureToolResultPairing } from "./tool-result-pairing.js";
import type { ContentBlock, Message, ToolResultContent, ToolSchema } from "./types.js";

function toolResultText(result: ToolResultContent): string {
  if (typeof result.content === "string") return result.content;
  return result.content
    .filter((part) => part.type === "text")
    .map((part) => part.text)
    .join("\n\n");
}

function userParts(content: ContentBlock[], callNames: Map<string, string>): Part[] {
  const responses: Part[] = [];
  const others: Part[] = [];
  for (const block of content) {
    if (block.type === "tool_result") {
      // Gemini pairs responses with calls by name and order; the id stays ours.
      const name = callNames.get(block.toolUseId) ?? "unknown_tool";
      const text = toolResultText(block);
      responses.push({ functionResponse: { name, response: block.isError === true ? { error: text } : { output: text } } });
      if (typeof block.content !== "string") {
        for (const part of block.content) {
          if (part.type === "image") others.push({ inlineData: { mimeType: part.mediaType, data: part.data } });
        }
      }
    } else if (block.type === "text" && block.text !== "") {
      others.push({ text: block.text });
    } else if (block.type === "image") {
      others.push({ inlineData: { mimeType: block.mediaType, data: block.data } });
    }
  }
  return [...responses, ...others];
}

/**
 * A model turn. Thought text is not sent back (Gemini ignores it); each thought signature goes
 * back on the part it came with: the function calls in order, else the last text part.
 */
function modelParts(content: ContentBlock[], callNames: Map<string, string>, dropped: DroppedReasoning): Part[] {
  const signatures: string[] = [];
  const texts: Part[] = [];
  const calls: Part[] = [];
  for (const block of content) {
    if (block.type === "reasoning") {
      const signature = signaturePayload("gemini", block.signature);
      if (signature !== undefined) signatures.push(signature);
      else if (block.redactedData !== undefined) dropped.add("anthropic");
      else if (block.signature !== undefined) dropped.add(signatureOwner(block.signature));
    } else if (block.type === "text" && block.text !== "") {
      texts.push({ text: block.text });
    } else if (block.type === "tool_use") {
      callNames.set(block.id, block.name);
      calls.push({ functionCall: { name: block.name, args: block.input } });
    }
  }
  const carriers = calls.length > 0 ? calls : texts.slice(-1);
  signatures.forEach((signature, position) => {
    const carrier = carriers[position];
    if (carrier !== undefined) carrier.thoughtSignature = signature;
  });
  const parts = [...texts, ...calls];
  if (parts.length === 0 && signatures[0] !== undefined) parts.push({ text: "", thoughtSignature: signatures[0] });
  return parts;
}

export interface GeminiContents {
  contents: Content[];
  /** A note for the user when reasoning from another API was left out. */
  note?: string;
}

/** The internal history as Gemini contents ("user" and "model" turns). */
export function toGeminiContents(messages: Message[]): GeminiContents {
  const dropped = new DroppedReasoning();
  const callNames = new Map<string, string>();
  const contents: Content[] = [];
  for (const message of ensureToolResultPairing(messages)) {
    const parts = message.role === "user" ? userParts(message.content, callNames) : modelParts(message.content, callNames, dropped);
    if (parts.length === 0) continue;
    const role = message.role === "user" ? "user" : "model";
    const last = contents.at(-1);
    // Gemini wants turns to alternate; two user messages in a row become one turn.
    if (last?.role === role) last.parts = [...(last.parts ?? []), ...parts];
    else contents.push({ role, parts });
  }
  const note = dropped.note("the Gemini API");
  return note === undefined ? { contents } : { contents, note };
}

export function toGeminiTools(tools: ToolSchema[]): FunctionDeclaration[] {
  // parametersJsonSchema takes the JSON schema as it is (`parameters` wants Gemini's own schema type).
  return tools.map((tool) => ({ name: tool.name, description: tool.description, parametersJsonSchema: tool.inputSchema }));
}
